// Map in 2-D: a is a SIZE x SIZE matrix stored row by row (element (row, col) at row * SIZE + col).
// Threads form a 3 x 3 grid, larger than the matrix. Set out = a + 10 element by element.
// global.x is this thread's column, global.y its row.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code: a guard on both axes and one line
}
