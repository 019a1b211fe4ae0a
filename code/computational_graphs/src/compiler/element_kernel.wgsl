// Template of a generated element-wise kernel: one invocation per output element.
// The names in braces are placeholders that codegen.rs fills in.
{BINDINGS}
const ROWS: u32 = {ROWS}u;
const COLS: u32 = {COLS}u;
#ifdef TILED
const K: u32 = {K}u;
var<workgroup> a_tile: array<f32, 256>;
var<workgroup> b_tile: array<f32, 256>;
#endif

@compute @workgroup_size(16, 16)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_id) local: vec3<u32>,
) {
    let row = id.y;
    let col = id.x;
    var v = 0.0;
#ifdef TILED
    // The matrix product, through 16×16 tiles in workgroup memory. Every invocation takes
    // part in loading and in every barrier, so the bounds check must come after this loop.
    for (var k0 = 0u; k0 < K; k0 += 16u) {
        var a = 0.0;
        if row < ROWS && k0 + local.x < K {
            a = {A}[row * K + k0 + local.x];
        }
        var b = 0.0;
        if k0 + local.y < K && col < COLS {
            b = {B}[(k0 + local.y) * COLS + col];
        }
        a_tile[local.y * 16u + local.x] = a;
        b_tile[local.y * 16u + local.x] = b;
        workgroupBarrier();
        for (var p = 0u; p < 16u; p++) {
            v += a_tile[local.y * 16u + p] * b_tile[p * 16u + local.x];
        }
        workgroupBarrier();
    }
#endif
#ifdef BOUNDS_CHECK
    if row >= ROWS || col >= COLS {
        return;
    }
#endif
{BODY}
}
