// Each thread computes the whole sum from global memory: right answer, 16 reads per thread.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    var sum = 0.0;
    for (var k = 0u; k < SIZE; k++) {
        sum += a(k) * b(k);
    }
    out[0] = sum;
}
