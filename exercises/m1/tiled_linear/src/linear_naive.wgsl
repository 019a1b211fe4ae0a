// y = x · w + b, one thread per output element: every product reads x and w from global memory.
// Bindings: the layout of a custom operator (its params first, the inputs in order, the output
// last).
struct Dims { m: u32, k: u32, n: u32, pad: u32 }

@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> b: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let row = gid.y;
    let col = gid.x;
    if (row >= dims.m || col >= dims.n) {
        return;
    }
    var acc = b[col];
    for (var p = 0u; p < dims.k; p++) {
        acc += x[row * dims.k + p] * w[p * dims.n + col];
    }
    y[row * dims.n + col] = acc;
}
