@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

// ANCHOR: relu
// One invocation per element. A dispatch has at most 65535 workgroups per dimension, so large
// tensors spread their workgroups over x and y and each invocation works out its flat index.
@compute @workgroup_size(256)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = id.y * groups.x * 256u + id.x;
    if i >= dims.m * dims.n {
        return;
    }
    output[i] = max(input[i], 0.0);
}
// ANCHOR_END: relu
