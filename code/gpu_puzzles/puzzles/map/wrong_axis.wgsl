// Takes the y coordinate, which is 0 for every thread of a 1-D launch: all write out[0].
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    out[global.y] = a(global.y) + 10.0;
}
