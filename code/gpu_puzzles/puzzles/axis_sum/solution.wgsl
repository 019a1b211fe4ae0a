var<workgroup> cache: array<f32, GROUP_SIZE>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let row = group.y;
    let col = local.x;
    var value = 0.0;
    if col < COLS {
        value = a(row * COLS + col);
    }
    cache[col] = value;
    workgroupBarrier();
    if col == 0u {
        var sum = 0.0;
        for (var k = 0u; k < GROUP_SIZE; k++) {
            sum += cache[k];
        }
        out[row] = sum;
    }
}
