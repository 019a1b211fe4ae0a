// Uses the width of the thread grid (3) as the row stride instead of the matrix's width.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let col = global.x;
    let row = global.y;
    if row < SIZE && col < SIZE {
        out[row * 3u + col] = a(row * SIZE + col) + 10.0;
    }
}
