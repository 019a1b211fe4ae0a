// Zip: set out[i] to a(i) + b(i) for every i below SIZE.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code: one line
}
