// Axis sum: a is a ROWS x COLS matrix stored row by row. Set out[row] to the sum of that row.
// One workgroup of GROUP_SIZE = 8 threads per row (group.y is the row); COLS = 6, so two
// threads have no column. One global read per thread.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
