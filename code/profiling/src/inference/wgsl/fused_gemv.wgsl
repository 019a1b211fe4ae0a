// ANCHOR: fused_gemv
// The same fused layer for a few rows at a time (a matrix-vector product per row): one
// workgroup per (output column, row). Its 64 threads walk the column's packed weights side by
// side, so neighbouring threads read neighbouring words, then add their partial sums in a tree.
@group(0) @binding(3) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> bias: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;

const THREADS: u32 = 64u;
var<workgroup> partial: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) g: vec3<u32>) {
    let col = g.x;
    let row = g.y;
    var acc = 0.0;
    for (var chunk = t; chunk < shape.words; chunk += THREADS) {
        acc += dot(x[row * shape.words + chunk], weights4(col, chunk));
    }
    partial[t] = acc;
    workgroupBarrier();
    for (var half = THREADS / 2u; half > 0u; half /= 2u) {
        if t < half {
            partial[t] += partial[t + half];
        }
        workgroupBarrier();
    }
    if t == 0u {
        var v = partial[0] + bias[col];
        if shape.relu != 0u {
            v = max(v, 0.0);
        }
        y[row * shape.n + col] = v;
    }
}
// ANCHOR_END: fused_gemv
