// No guard at all: every extra thread writes past the end.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = global.x;
    out[i] = a(i) + 10.0;
}
