// ANCHOR: shared_row_scale
// The same y = dequantize(int8(x) · int8(W)) + b as quant_linear.wgsl, with the same params,
// but the 16 threads of a row share its quantization: a 16×16 workgroup finds each row's
// max|x| together, then quantizes each tile of the row once into workgroup memory.
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

const HEADER: u32 = 6u;
const T: u32 = 16u;
var<workgroup> partial_max: array<array<f32, 16>, 16>;
var<workgroup> tile_x: array<array<u32, 16>, 16>;
// One spare word per row, so that neighbouring threads read different banks.
var<workgroup> tile_w: array<array<u32, 17>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) g: vec3<u32>) {
    let m = params[0];
    let k = params[1];
    let n = params[2];
    let words = params[3];
    let row = g.y * T + l.y;
    let col = g.x * T + l.x;
    let w_col = g.x * T + l.y; // this thread loads one packed word of this weight column
    // Each thread scans every 16th value of its row; then each reads the 16 partial maxima.
    var hi = 0.0;
    if row < m {
        for (var p = l.x; p < k; p += T) {
            hi = max(hi, abs(x[row * k + p]));
        }
    }
    partial_max[l.y][l.x] = hi;
    workgroupBarrier();
    for (var i = 0u; i < T; i++) {
        hi = max(hi, partial_max[l.y][i]);
    }
    let scale = select(1.0, hi / 127.0, hi > 0.0);
// ANCHOR_END: shared_row_scale
// ANCHOR: shared_dot
    var acc = 0i;
    for (var t = 0u; t < words; t += T) {
        // This thread rounds and packs one word (four values) of its row, once per workgroup.
        let w = t + l.x;
        var packed = 0u;
        for (var j = 0u; j < 4u; j++) {
            let p = 4u * w + j;
            if row < m && p < k {
                let q = i32(clamp(round(x[row * k + p] / scale), -127.0, 127.0));
                packed |= (bitcast<u32>(q) & 0xffu) << (8u * j);
            }
        }
        var weight = 0u;
        if w_col < n && w < words {
            weight = params[HEADER + w_col * words + w];
        }
        tile_x[l.y][l.x] = packed;
        tile_w[l.y][l.x] = weight;
        workgroupBarrier();
        for (var i = 0u; i < T; i++) {
            acc += dot4(tile_x[l.y][i], tile_w[l.x][i]);
        }
        workgroupBarrier();
    }
    if row < m && col < n {
        let w_scale = bitcast<f32>(params[params[4] + col]);
        let bias = bitcast<f32>(params[params[5] + col]);
        y[row * n + col] = f32(acc) * scale * w_scale + bias;
    }
}
// ANCHOR_END: shared_dot
