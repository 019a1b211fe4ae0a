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
#ifndef SUBGROUP
var<workgroup> a_tile: array<vec4<f32>, {A_ARRAY_LEN}>;
#endif
var<workgroup> b_tile: array<vec4<f32>, {B_ARRAY_LEN}>;
#ifdef SUBGROUP
// One dimension: WGSL gives subgroup ids only to one-dimensional workgroups.
@compute @workgroup_size({INVOCATIONS})
#else
@compute @workgroup_size({TX}, {TY})
#endif
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) local_index: u32,
#ifdef SUBGROUP
    @builtin(subgroup_id) subgroup: u32,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) subgroup_size: u32,
#endif
) {
    let row0 = group.y * {BM}u;
    let col0 = group.x * {BN}u;
#ifdef SUBGROUP
    // Number the invocations subgroup by subgroup, so that the lanes sharing a row of C are
    // lanes of one subgroup. On a subgroup of another size than the kernel was made for, the
    // local index keeps every address in bounds and C is left unwritten.
    let as_made = subgroup_size == {SUBGROUP_SIZE}u && subgroup < {INVOCATIONS}u / {SUBGROUP_SIZE}u;
    let tid = select(local_index, subgroup * {SUBGROUP_SIZE}u + lane, as_made);
#else
    let tid = local_index;
#endif
    let lx = tid % {TX}u;
    let ly = tid / {TX}u;
#ifdef SUBGROUP
    // This lane's place among the {GROUP_LANES} lanes that share its rows, and the first of them.
    let gl = lx % {GROUP_LANES}u;
    let group_lane0 = lane - gl;
#endif
{REGISTERS}
#ifdef PREFETCH
{LOAD_FIRST}
{STORE_FIRST}
    workgroupBarrier();
// ANCHOR: pairs
#ifdef DOUBLE_PAIRS
    // Two steps per trip: the first multiplies set 0 while the next step goes into set 1, the
    // second the other way round; every tile index is a constant.
    for (var k0 = 0u; k0 < K; k0 += {BK2}u) {
      if k0 + {BK}u < K {
{LOAD_NEXT}
      }
{MULTIPLY_SET0}
{STORE_INTO_SET1}
        workgroupBarrier();
      if k0 + {BK}u < K {
        if k0 + {BK2}u < K {
{LOAD_AFTER_NEXT}
        }
{MULTIPLY_SET1}
{STORE_INTO_SET0}
        workgroupBarrier();
      }
    }
// ANCHOR_END: pairs
#else
#ifdef DOUBLE
    // Tile set being read (0 or 1); the prefetched step goes into the other one.
    var read_set = 0u;
#endif
    for (var k0 = 0u; k0 < K; k0 += {BK}u) {
#ifdef DOUBLE
      let ra = read_set * {A_TILE_LEN}u;
      let rb = read_set * {B_TILE_LEN}u;
      let wa = {A_TILE_LEN}u - ra;
      let wb = {B_TILE_LEN}u - rb;
#endif
      if k0 + {BK}u < K {
{LOAD_NEXT}
      }
{MULTIPLY}
#ifdef DOUBLE
{STORE_TILES}
        workgroupBarrier();
        read_set = 1u - read_set;
#else
        workgroupBarrier();
{STORE_TILES}
        workgroupBarrier();
#endif
    }
#endif
#else
    for (var k0 = 0u; k0 < K; k0 += {BK}u) {
{LOAD}
{STORE_TILES}
        workgroupBarrier();
{MULTIPLY}
        workgroupBarrier();
    }
#endif
#ifdef SUBGROUP
    if !as_made {
        return;
    }
#endif
{STORE_C}
}
