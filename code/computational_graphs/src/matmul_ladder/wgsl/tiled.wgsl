@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

const T: u32 = 16u;
var<workgroup> a_tile: array<f32, 256>;
var<workgroup> b_tile: array<f32, 256>;

// A 16×16 workgroup computes a 16×16 block of C. For each step along k it loads one 16×16
// tile of A and one of B into workgroup memory (each invocation loads one element of each),
// waits for all, and then every invocation reads 16 values of each tile from fast memory:
// each element loaded from global memory is used 16 times.
@compute @workgroup_size(16, 16)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
) {
    let row = id.y;
    let col = id.x;
    var acc = 0.0;
    for (var k0 = 0u; k0 < dims.k; k0 += T) {
        let a_col = k0 + local.x;
        let b_row = k0 + local.y;
        var av = 0.0;
        if row < dims.m && a_col < dims.k {
            av = a[row * dims.k + a_col];
        }
        var bv = 0.0;
        if b_row < dims.k && col < dims.n {
            bv = b[b_row * dims.n + col];
        }
        a_tile[local.y * T + local.x] = av;
        b_tile[local.y * T + local.x] = bv;
        workgroupBarrier();
        for (var p = 0u; p < T; p++) {
            acc += a_tile[local.y * T + p] * b_tile[p * T + local.x];
        }
        workgroupBarrier();
    }
    if row < dims.m && col < dims.n {
        c[row * dims.n + col] = acc;
    }
}
