// Row-wise softmax with tree reductions in workgroup memory (solution).
struct Dims { rows: u32, cols: u32, groups_x: u32, pad: u32 }

@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

const WG: u32 = 64u;
var<workgroup> scratch: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    let row = wid.y * dims.groups_x + wid.x;
    // Uniform for the whole workgroup, so returning here never strands a barrier.
    if (row >= dims.rows) {
        return;
    }
    let base = row * dims.cols;

    // The lowest finite f32, written exactly: strict WGSL compilers (Chrome's) reject the decimal
    // -3.40282347e+38, which lies just past it.
    var local_max = -0x1.fffffep+127f;
    for (var c = lid; c < dims.cols; c += WG) {
        local_max = max(local_max, x[base + c]);
    }
    scratch[lid] = local_max;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            scratch[lid] = max(scratch[lid], scratch[lid + s]);
        }
        workgroupBarrier();
    }
    let row_max = scratch[0];
    workgroupBarrier();

    var local_sum = 0.0;
    for (var c = lid; c < dims.cols; c += WG) {
        local_sum += exp(x[base + c] - row_max);
    }
    scratch[lid] = local_sum;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        if (lid < s) {
            scratch[lid] = scratch[lid] + scratch[lid + s];
        }
        workgroupBarrier();
    }
    let total = scratch[0];

    for (var c = lid; c < dims.cols; c += WG) {
        // Wrong on purpose: the max is not subtracted here, so large inputs overflow.
        y[base + c] = exp(x[base + c]) / (total * exp(row_max));
    }
}
