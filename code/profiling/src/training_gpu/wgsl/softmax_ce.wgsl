// Needs reduce.wgsl (WG, reduce_max, reduce_sum) before it.
struct Rows {
    m: u32, // samples
    n: u32, // classes
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<storage, read> rows: Rows;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> labels: array<u32>;
@group(0) @binding(3) var<storage, read_write> grad: array<f32>;
@group(0) @binding(4) var<storage, read_write> row_loss: array<f32>;

// ANCHOR: softmax_ce
// Forward and backward of softmax + cross-entropy in one kernel, one workgroup per sample:
// the row's log-sum-exp gives its loss, ln Σ e^z − z[label], and its gradient (p − y) / m.
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let row = group.x;
    let base = row * rows.n;
    var local_max = -0x1.fffffep+127f;
    for (var j = t; j < rows.n; j += WG) {
        local_max = max(local_max, logits[base + j]);
    }
    let row_max = reduce_max(t, local_max);
    var local_sum = 0.0;
    for (var j = t; j < rows.n; j += WG) {
        local_sum += exp(logits[base + j] - row_max);
    }
    let log_sum_exp = row_max + log(reduce_sum(t, local_sum));
    let label = labels[row];
    let per_sample = 1.0 / f32(rows.m);
    for (var j = t; j < rows.n; j += WG) {
        let p = exp(logits[base + j] - log_sum_exp);
        grad[base + j] = (p - select(0.0, 1.0, j == label)) * per_sample;
    }
    if t == 0u {
        row_loss[row] = log_sum_exp - logits[base + label];
    }
}
// ANCHOR_END: softmax_ce
