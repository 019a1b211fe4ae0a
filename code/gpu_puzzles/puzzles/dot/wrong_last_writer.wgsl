// Every thread writes its own product to out[0]: whichever writes last wins; nothing is summed.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = global.x;
    out[0] = a(i) * b(i);
}
