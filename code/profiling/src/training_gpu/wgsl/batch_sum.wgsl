// Needs reduce.wgsl (WG, reduce_sum) before it.
// C = Aᵀ · B where the inner dimension is the batch: A stored k×m, B stored k×n, k large,
// m and n small (a layer's weights). The same Product header as matmul_t.wgsl.
struct Product {
    m: u32,
    k: u32,
    n: u32,
    flags: u32, // unused: A is always read transposed here
}

@group(0) @binding(0) var<storage, read> shape: Product;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// ANCHOR: batch_sum
// One workgroup per element of C: its 64 invocations stride along the batch, each keeps a
// partial sum, and a tree reduction in workgroup memory adds the 64 partial sums. The batch is
// walked 64 samples at a time instead of one.
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let row = group.y;
    let col = group.x;
    var partial = 0.0;
    for (var p = t; p < shape.k; p += WG) {
        partial += a[p * shape.m + row] * b[p * shape.n + col];
    }
    let total = reduce_sum(t, partial);
    if t == 0u {
        c[row * shape.n + col] = total;
    }
}
// ANCHOR_END: batch_sum
