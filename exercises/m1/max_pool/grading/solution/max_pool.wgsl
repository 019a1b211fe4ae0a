// Max pooling, window and stride k, no padding: one invocation per output element (solution).
// params = rows, cols, k, out_rows, out_cols.
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cols = params[1];
    let k = params[2];
    let out_rows = params[3];
    let out_cols = params[4];
    let r = id.y;
    let c = id.x;
    // The last workgroups hang over the edge of the output when it is not a multiple of 8.
    if r >= out_rows || c >= out_cols {
        return;
    }
    // The lowest f32, not 0: a window of negative numbers keeps its largest one. Written exactly in
    // hexadecimal: strict WGSL compilers (Chrome's) reject the decimal -3.40282347e+38.
    var best = -0x1.fffffep+127f;
    for (var dy = 0u; dy < k; dy++) {
        let start = (r * k + dy) * cols + c * k;
        for (var dx = 0u; dx < k; dx++) {
            best = max(best, input[start + dx]);
        }
    }
    output[r * out_cols + c] = best;
}
