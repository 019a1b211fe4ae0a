// Row-wise softmax, one thread per row: three loops over the row (max, sum, write).
// Bindings: the layout of a custom operator (its params first, the input, the output last).
struct Dims { rows: u32, cols: u32, groups_x: u32, pad: u32 }

@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y * dims.groups_x * 64u + gid.x;
    if (row >= dims.rows) {
        return;
    }
    let base = row * dims.cols;
    var row_max = x[base];
    for (var c = 1u; c < dims.cols; c++) {
        row_max = max(row_max, x[base + c]);
    }
    var sum = 0.0;
    for (var c = 0u; c < dims.cols; c++) {
        sum += exp(x[base + c] - row_max);
    }
    for (var c = 0u; c < dims.cols; c++) {
        y[base + c] = exp(x[base + c] - row_max) / sum;
    }
}
