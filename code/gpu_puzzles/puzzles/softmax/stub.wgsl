// Softmax of each row: a is ROWS x COLS (4 x 8) stored row by row; one workgroup of
// COLS threads per row (group.y is the row). out[row, j] = exp(x_j - m) / sum_k exp(x_k - m),
// where m is the row's maximum (some rows hold numbers near 100: exp(100) overflows f32).
// One global read per thread.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
