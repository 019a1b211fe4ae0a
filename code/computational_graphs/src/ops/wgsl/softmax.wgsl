@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

// ANCHOR: softmax
// One workgroup per row; its 64 invocations stride along the row's columns.
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let base = group.x * dims.n;
    // The lowest finite f32, written exactly: the rounded decimal -3.4028235e38 lies just past
    // it, and strict WGSL compilers (Chrome's) reject it.
    var local_max = -0x1.fffffep+127f;
    for (var c = t; c < dims.n; c += WG) {
        local_max = max(local_max, input[base + c]);
    }
    let row_max = reduce_max(t, local_max);
    var local_sum = 0.0;
    for (var c = t; c < dims.n; c += WG) {
        local_sum += exp(input[base + c] - row_max);
    }
    let row_sum = reduce_sum(t, local_sum);
    for (var c = t; c < dims.n; c += WG) {
        output[base + c] = exp(input[base + c] - row_max) / row_sum;
    }
}
// ANCHOR_END: softmax
