@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weights: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;

// ANCHOR: linear_relu
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let col = id.x;
    let row = id.y;
    if row >= dims.m || col >= dims.n {
        return;
    }
    var acc = bias[col];
    for (var p = 0u; p < dims.k; p++) {
        acc += input[row * dims.k + p] * weights[p * dims.n + col];
    }
    // The fusion: ReLU is applied to the sum while it is still in a register, so the
    // intermediate result never travels to memory and back.
    output[row * dims.n + col] = max(acc, 0.0);
}
// ANCHOR_END: linear_relu
