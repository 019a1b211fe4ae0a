// Template of a register-blocked matmul kernel, filled in by unrolled.rs: names in braces are
// placeholders. The blocks of straight-line code (accumulators, tile loads, the multiply, the
// stores of C) are generated with one named variable per register.
@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> a: array<{TY}>;
@group(0) @binding(2) var<storage, read> b: array<{TY}>;
@group(0) @binding(3) var<storage, read_write> c: array<{TY}>;
var<workgroup> a_tile: array<f32, {A_TILE_LEN}>;
var<workgroup> b_tile: array<{TY}, {B_TILE_LEN}>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let row0 = group.y * {BM}u;
    let col0 = group.x * {BN_ELEMENTS}u;
    let ka = dims.k / {LANES}u;
    let nb = dims.n / {LANES}u;
{ACCUMULATORS}
    for (var k0 = 0u; k0 < dims.k; k0 += {BK}u) {
{LOAD_TILES}
        workgroupBarrier();
        for (var p = 0u; p < {BK}u; p++) {
{MULTIPLY}
        }
        workgroupBarrier();
    }
{STORE_C}
}
