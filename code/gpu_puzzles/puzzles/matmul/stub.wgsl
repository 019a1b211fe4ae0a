// Matrix multiply with tiles: out = a x b, all N x N (N = 6) stored row by row.
// Workgroups of TILE x TILE = 4 x 4 threads, 2 x 2 of them; thread (global.y, global.x) owns
// out[row, col]. At most 4 global reads per thread: walk the k axis one tile at a time, each
// thread loading one element of a and one of b into workgroup memory (0 where it is outside
// the matrix), wait, multiply the tiles, wait again.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
