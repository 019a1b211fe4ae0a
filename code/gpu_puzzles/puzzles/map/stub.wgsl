// Map: set out[i] to a(i) + 10 for every i below SIZE.
// One thread per element: this thread's index is global.x.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code: one line
}
