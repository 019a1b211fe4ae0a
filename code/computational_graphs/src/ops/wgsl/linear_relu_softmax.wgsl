@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read> weights: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> output: array<f32>;

// ANCHOR: linear_relu_softmax
// One workgroup per row: softmax needs the whole row, and only invocations of one workgroup
// can wait for each other (workgroupBarrier). Each invocation computes every 64th column of
// Linear+ReLU, keeps its running maximum, and the workgroup reduces.
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let row = group.x;
    let base = row * dims.n;
    // The lowest finite f32, written exactly: the rounded decimal -3.4028235e38 lies just past
    // it, and strict WGSL compilers (Chrome's) reject it.
    var local_max = -0x1.fffffep+127f;
    for (var c = t; c < dims.n; c += WG) {
        var acc = bias[c];
        for (var p = 0u; p < dims.k; p++) {
            acc += input[row * dims.k + p] * weights[p * dims.n + c];
        }
        acc = max(acc, 0.0);
        output[base + c] = acc;
        local_max = max(local_max, acc);
    }
    let row_max = reduce_max(t, local_max);
    // Each invocation reads back only the columns it wrote itself: no barrier needed for those.
    var local_sum = 0.0;
    for (var c = t; c < dims.n; c += WG) {
        let e = exp(output[base + c] - row_max);
        output[base + c] = e;
        local_sum += e;
    }
    let row_sum = reduce_sum(t, local_sum);
    for (var c = t; c < dims.n; c += WG) {
        output[base + c] = output[base + c] / row_sum;
    }
}
// ANCHOR_END: linear_relu_softmax
