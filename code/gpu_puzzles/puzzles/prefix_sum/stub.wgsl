// Prefix sum (inclusive scan): out[i] = a(0) + a(1) + ... + a(i), SIZE = 8, one workgroup of 8.
// One global read per thread. In log2(SIZE) steps, each thread adds the value 'offset' places
// to its left (offset = 1, 2, 4): read it, wait, write, wait.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
