// Guards: there are more threads (8) than elements (SIZE = 4).
// Set out[i] to a(i) + 10 for i below SIZE; threads past the end must write nothing.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code: a guard and one line
}
