// Split-K, second pass: each invocation adds up the SLICES partial values of one element of C
// (in slice order, so that the result is the same on every run), then applies the epilogue.
const MN: u32 = {MN}u;
const N: u32 = {N}u;
const SLICES: u32 = {SLICES}u;

@group(0) @binding(0) var<storage, read> partial: array<f32>;
#ifdef BIAS
@group(0) @binding(1) var<storage, read> bias: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
#else
@group(0) @binding(1) var<storage, read_write> c: array<f32>;
#endif

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= MN) {
        return;
    }
    var v = 0.0;
    for (var s = 0u; s < SLICES; s++) {
        v += partial[s * MN + i];
    }
#ifdef BIAS
    v += bias[i % N];
#endif
#ifdef RELU
    v = max(v, 0.0);
#endif
    c[i] = v;
}
