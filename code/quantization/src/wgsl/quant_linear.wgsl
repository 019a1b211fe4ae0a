// ANCHOR: quant_linear_row_scale
// y = dequantize(int8(x) · int8(W)) + b, with W packed four bytes to a word in `params`.
// params: [m, k, n, words per column, scales offset, bias offset, then the packed words...]
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

const HEADER: u32 = 6u;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let m = params[0];
    let k = params[1];
    let n = params[2];
    let words = params[3];
    let col = id.x;
    let row = id.y;
    if row >= m || col >= n {
        return;
    }
    // Dynamic quantization of this input row: its own scale, from its largest |x|.
    var hi = 0.0;
    for (var p = 0u; p < k; p++) {
        hi = max(hi, abs(x[row * k + p]));
    }
    let scale = select(1.0, hi / 127.0, hi > 0.0);
// ANCHOR_END: quant_linear_row_scale
// ANCHOR: quant_linear_dot
    var acc = 0i;
    for (var w = 0u; w < words; w++) {
        var packed = 0u;
        for (var j = 0u; j < 4u; j++) {
            let p = 4u * w + j;
            var q = 0i;
            if p < k {
                q = i32(clamp(round(x[row * k + p] / scale), -127.0, 127.0));
            }
            packed |= (bitcast<u32>(q) & 0xffu) << (8u * j);
        }
        acc += dot4(packed, params[HEADER + col * words + w]);
    }
    let w_scale = bitcast<f32>(params[params[4] + col]);
    let bias = bitcast<f32>(params[params[5] + col]);
    y[row * n + col] = f32(acc) * scale * w_scale + bias;
}
// ANCHOR_END: quant_linear_dot
