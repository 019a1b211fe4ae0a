var<workgroup> row_values: array<f32, COLS>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let row = group.y;
    let j = local.x;
    row_values[j] = a(row * COLS + j);
    workgroupBarrier();
    var m = row_values[0];
    for (var k = 1u; k < COLS; k++) {
        m = max(m, row_values[k]);
    }
    var sum = 0.0;
    for (var k = 0u; k < COLS; k++) {
        sum += exp(row_values[k] - m);
    }
    out[row * COLS + j] = exp(row_values[j] - m) / sum;
}
