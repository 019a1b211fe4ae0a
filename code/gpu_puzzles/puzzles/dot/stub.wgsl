// Dot product: set out[0] to the sum of a(i) * b(i) over i below SIZE = 8.
// One workgroup of 8 threads; each thread may read a once and b once (2 global reads).
// Store the products in workgroup memory, wait, and let one thread add them up.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
