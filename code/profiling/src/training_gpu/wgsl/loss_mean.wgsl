// Needs reduce.wgsl (WG, reduce_sum) before it.
struct Rows {
    m: u32,
    n: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<storage, read> rows: Rows;
@group(0) @binding(1) var<storage, read> row_loss: array<f32>;
@group(0) @binding(2) var<storage, read_write> loss: array<f32>;

// The mean of the per-sample losses, in one workgroup: it stays on the GPU until asked for.
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t: u32) {
    var local_sum = 0.0;
    for (var i = t; i < rows.m; i += WG) {
        local_sum += row_loss[i];
    }
    let total = reduce_sum(t, local_sum);
    if t == 0u {
        loss[0] = total / f32(rows.m);
    }
}
