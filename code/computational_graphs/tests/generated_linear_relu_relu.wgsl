// Template of a generated element-wise kernel: one invocation per output element.
// The names in braces are placeholders that codegen.rs fills in.
@group(0) @binding(0) var<storage, read> b0: array<f32>;
@group(0) @binding(1) var<storage, read> b1: array<f32>;
@group(0) @binding(2) var<storage, read> b2: array<f32>;
@group(0) @binding(3) var<storage, read_write> b3: array<f32>;

const ROWS: u32 = 33u;
const COLS: u32 = 18u;

@compute @workgroup_size(16, 16)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
) {
    let row = id.y;
    let col = id.x;
    var v = 0.0;
    if row >= ROWS || col >= COLS {
        return;
    }
    for (var p = 0u; p < 18u; p++) { v += b0[row * 18u + p] * b1[p * 18u + col]; }
    v += b2[col];
    v = max(v, 0.0);
    v = max(v, 0.0);
    b3[row * COLS + col] = v;
}
