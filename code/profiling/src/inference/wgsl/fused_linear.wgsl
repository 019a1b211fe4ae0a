// ANCHOR: fused_linear
// y = relu(x · W + b) in one pass, W read in its packed form: the tiled GEMM of module 3
// (16×16 tiles in workgroup memory), with the weight tile's load calling `weights4`, so the
// dequantized values live only in registers and workgroup memory, never in a buffer.
@group(0) @binding(3) var<storage, read> x: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> bias: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;

const T: u32 = 16u;
var<workgroup> tile_x: array<array<vec4<f32>, 16>, 16>;
var<workgroup> tile_w: array<array<vec4<f32>, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) g: vec3<u32>) {
    let row = g.y * T + l.y;
    let col = g.x * T + l.x;
    let w_col = g.x * T + l.y; // this thread loads four weights of column w_col
    var acc = 0.0;
    for (var t = 0u; t < shape.words; t += T) {
        var xv = vec4<f32>();
        var wv = vec4<f32>();
        if row < shape.m && t + l.x < shape.words {
            xv = x[row * shape.words + t + l.x];
        }
        if w_col < shape.n && t + l.x < shape.words {
            wv = weights4(w_col, t + l.x); // the fusion: unpack and scale while loading
        }
        tile_x[l.y][l.x] = xv;
        tile_w[l.y][l.x] = wv;
        workgroupBarrier();
        for (var i = 0u; i < T; i++) {
            acc += dot(tile_x[l.y][i], tile_w[l.x][i]);
        }
        workgroupBarrier();
    }
    if row < shape.m && col < shape.n {
        var v = acc + bias[col];
        if shape.relu != 0u {
            v = max(v, 0.0);
        }
        y[row * shape.n + col] = v;
    }
}
// ANCHOR_END: fused_linear
