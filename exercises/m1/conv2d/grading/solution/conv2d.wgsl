// A 2D convolution, one invocation per output element (solution).
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> image: array<f32>;
@group(0) @binding(2) var<storage, read> weights: array<f32>; // the convolution kernel
@group(0) @binding(3) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let image_cols = params[1];
    let kernel_rows = params[2];
    let kernel_cols = params[3];
    let stride = params[4];
    let out_rows = params[5];
    let out_cols = params[6];
    let c = id.x;
    let r = id.y;
    // The last workgroups stick out past the output's edges.
    if (c >= out_cols || r >= out_rows) {
        return;
    }
    var sum = 0.0;
    for (var i = 0u; i < kernel_rows; i++) {
        let row = (r * stride + i) * image_cols + c * stride;
        for (var j = 0u; j < kernel_cols; j++) {
            sum += weights[i * kernel_cols + j] * image[row + j];
        }
    }
    output[r * out_cols + c] = sum;
}
