// Template of a generated row-wise kernel (softmax and what was fused into it): one workgroup
// of 64 invocations per row, striding along the columns.
{BINDINGS}
const ROWS: u32 = {ROWS}u;
const COLS: u32 = {COLS}u;
const WG: u32 = 64u;
var<workgroup> scratch: array<f32, WG>;

fn reduce(t: u32, value: f32, take_max: bool) -> f32 {
    scratch[t] = value;
    workgroupBarrier();
    for (var stride = WG / 2u; stride > 0u; stride /= 2u) {
        if t < stride {
            let other = scratch[t + stride];
            scratch[t] = select(scratch[t] + other, max(scratch[t], other), take_max);
        }
        workgroupBarrier();
    }
    let result = scratch[0];
    workgroupBarrier();
    return result;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let row = group.x;
    // The lowest finite f32, written exactly: the rounded decimal -3.4028235e38 lies just past
    // it, and strict WGSL compilers (Chrome's) reject it.
    var local_max = -0x1.fffffep+127f;
    for (var col = t; col < COLS; col += WG) {
        var v = 0.0;
{BODY}
        {OUT}[row * COLS + col] = v;
        local_max = max(local_max, v);
    }
    let row_max = reduce(t, local_max, true);
    var local_sum = 0.0;
    for (var col = t; col < COLS; col += WG) {
        let e = exp({OUT}[row * COLS + col] - row_max);
        {OUT}[row * COLS + col] = e;
        local_sum += e;
    }
    let row_sum = reduce(t, local_sum, false);
    for (var col = t; col < COLS; col += WG) {
        {OUT}[row * COLS + col] = {OUT}[row * COLS + col] / row_sum;
    }
}
