// Shared by the row-wise kernels: one workgroup of WG invocations works on one row.
const WG: u32 = 64u;
var<workgroup> scratch: array<f32, WG>;

// ANCHOR: reduce
// Tree reduction in workgroup (shared) memory: 64 → 32 → … → 1 partial results, with a
// barrier between steps so that nobody reads a slot before its writer is done.
fn reduce_max(t: u32, value: f32) -> f32 {
    scratch[t] = value;
    workgroupBarrier();
    for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
        if t < stride {
            scratch[t] = max(scratch[t], scratch[t + stride]);
        }
        workgroupBarrier();
    }
    let result = scratch[0];
    workgroupBarrier();
    return result;
}

fn reduce_sum(t: u32, value: f32) -> f32 {
    scratch[t] = value;
    workgroupBarrier();
    for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
        if t < stride {
            scratch[t] = scratch[t] + scratch[t + stride];
        }
        workgroupBarrier();
    }
    let result = scratch[0];
    workgroupBarrier();
    return result;
}
// ANCHOR_END: reduce
