// Pooling: set out[i] = a(i - 2) + a(i - 1) + a(i), leaving out terms before the start
// (out[0] = a(0), out[1] = a(0) + a(1)). SIZE = 8, one workgroup of 8 threads.
// One global read per thread: share the loads through workgroup memory.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
