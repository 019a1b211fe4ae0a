// Uses the index inside the workgroup as if it were global: every workgroup writes 0..3.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = local.x;
    if i < SIZE {
        out[i] = a(i) + 10.0;
    }
}
