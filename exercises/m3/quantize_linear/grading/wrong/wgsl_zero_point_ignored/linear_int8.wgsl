// Wrong: the kernel leaves out the zero-point correction.
// y = x · W + b from int8 operands: one invocation per output (row, col), the k products summed
// in i32 four at a time, then one dequantisation.
struct Params {
    m: u32,
    k: u32,
    n: u32,
    words: u32,
    x_scale: f32,
    x_zero: i32,
}

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> x_packed: array<u32>;
@group(0) @binding(2) var<storage, read> w_packed: array<u32>;
@group(0) @binding(3) var<storage, read> w_scales: array<f32>;
@group(0) @binding(4) var<storage, read> w_sums: array<i32>;
@group(0) @binding(5) var<storage, read> bias: array<f32>;
@group(0) @binding(6) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let row = id.y;
    let col = id.x;
    if row >= params.m || col >= params.n {
        return;
    }
    var acc = 0i;
    for (var w = 0u; w < params.words; w++) {
        acc += dot4I8Packed(x_packed[row * params.words + w], w_packed[col * params.words + w]);
    }
    // Wrong: Σ qx·qw, not Σ (qx − zx)·qw.
    let centred = acc;
    y[row * params.n + col] = params.x_scale * w_scales[col] * f32(centred) + bias[col];
}
