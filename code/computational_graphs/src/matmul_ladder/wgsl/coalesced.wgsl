@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// ANCHOR: coalesced
// The same arithmetic with x mapped to the COLUMN: neighbouring invocations read neighbouring
// elements of B and write neighbouring elements of C (one wide, coalesced memory transaction),
// and all of them read the same element of A (one broadcast).
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let col = id.x;
    let row = id.y;
    if row >= dims.m || col >= dims.n {
        return;
    }
    var acc = 0.0;
    for (var p = 0u; p < dims.k; p++) {
        acc += a[row * dims.k + p] * b[p * dims.n + col];
    }
    c[row * dims.n + col] = acc;
}
// ANCHOR_END: coalesced
