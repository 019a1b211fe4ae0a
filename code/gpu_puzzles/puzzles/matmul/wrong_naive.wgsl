// The untiled product: right answer, but 2 * N = 12 global reads per thread.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let row = global.y;
    let col = global.x;
    if row < N && col < N {
        var acc = 0.0;
        for (var k = 0u; k < N; k++) {
            acc += a(row * N + k) * b(k * N + col);
        }
        out[row * N + col] = acc;
    }
}
