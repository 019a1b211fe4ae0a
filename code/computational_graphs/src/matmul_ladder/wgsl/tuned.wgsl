// Template of a tuned matmul kernel, filled in by tuned.rs: `#ifdef` sections choose the
// variant, names in braces are placeholders. The blocks of straight-line code (registers, loads,
// tile stores, the multiply, the stores of C) are generated with one named variable per register.
override M: u32;
override N: u32;
override K: u32;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<{VEC}>;
#ifdef BIAS
@group(0) @binding(2) var<storage, read> bias: array<{VEC}>;
@group(0) @binding(3) var<storage, read_write> c: array<{VEC}>;
#else
@group(0) @binding(2) var<storage, read_write> c: array<{VEC}>;
#endif
var<workgroup> a_tile: array<vec4<f32>, {A_TILE_LEN}>;
var<workgroup> b_tile: array<vec4<f32>, {B_TILE_LEN}>;
@compute @workgroup_size({TX}, {TY})
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
    let row0 = group.y * {BM}u;
    let col0 = group.x * {BN}u;
{REGISTERS}
#ifdef PREFETCH
{LOAD_FIRST}
{STORE_TILES}
    workgroupBarrier();
    for (var k0 = 0u; k0 < K; k0 += {BK}u) {
      if k0 + {BK}u < K {
{LOAD_NEXT}
      }
{MULTIPLY}
        workgroupBarrier();
{STORE_TILES}
        workgroupBarrier();
    }
#else
    for (var k0 = 0u; k0 < K; k0 += {BK}u) {
{LOAD}
{STORE_TILES}
        workgroupBarrier();
{MULTIPLY}
        workgroupBarrier();
    }
#endif
{STORE_C}
}
