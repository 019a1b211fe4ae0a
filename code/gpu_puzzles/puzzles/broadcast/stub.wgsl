// Broadcast: a is a column of SIZE numbers, b a row of SIZE numbers.
// Set out[row * SIZE + col] to a(row) + b(col): an outer sum, SIZE x SIZE.
// Threads form a 3 x 3 grid.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
