// Histogram: a holds SIZE = 64 numbers, each below BINS = 4. Count how many equal each value:
// out[v] = number of i with a(i) == v. Two workgroups of 32 threads, one thread per number.
// Many threads hit the same bin at once: out is array<atomic<u32>>, use atomicAdd.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
