@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// ANCHOR: naive
// One invocation per element of C, with x mapped to the ROW. Invocations next to each other
// in x (which a GPU runs together) then read A and write C a whole row apart: every access of
// the group touches a different cache line.
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let row = id.x;
    let col = id.y;
    if row >= dims.m || col >= dims.n {
        return;
    }
    var acc = 0.0;
    for (var p = 0u; p < dims.k; p++) {
        acc += a[row * dims.k + p] * b[p * dims.n + col];
    }
    c[row * dims.n + col] = acc;
}
// ANCHOR_END: naive
