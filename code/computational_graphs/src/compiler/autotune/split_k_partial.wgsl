// Split-K, first pass: workgroup (x, y, z) multiplies the BM×BN block (y, x) of A · B over the
// k-slice z only, and writes its partial block into slice z of `partial` (SLICES × M × N).
// Shapes are written in as constants; every access is bounds-checked, so any shape works.
const M: u32 = {M}u;
const N: u32 = {N}u;
const K: u32 = {K}u;
const TX: u32 = {TX}u;
const TY: u32 = {TY}u;
const R: u32 = {R}u;
const C: u32 = {C}u;
const BK: u32 = {BK}u;
const SLICE: u32 = {SLICE}u;
const BM: u32 = {BM}u;
const BN: u32 = {BN}u;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;

// Tiles stored k-major, so that a step p reads a column of A's tile and a row of B's.
var<workgroup> tile_a: array<f32, {TILE_A}>;
var<workgroup> tile_b: array<f32, {TILE_B}>;

@compute @workgroup_size({TX}, {TY})
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let row0 = wg.y * BM;
    let col0 = wg.x * BN;
    let k_start = wg.z * SLICE;
    let k_end = min(K, k_start + SLICE);
    var acc: array<f32, {RC}>;
    var a_reg: array<f32, {R}>;
    var b_reg: array<f32, {C}>;
    for (var k0 = k_start; k0 < k_end; k0 += BK) {
        // Consecutive invocations load consecutive addresses of A's rows and of B's rows.
        for (var i = li; i < BM * BK; i += TX * TY) {
            let r = i / BK;
            let p = i % BK;
            var v = 0.0;
            if (row0 + r < M && k0 + p < k_end) {
                v = a[(row0 + r) * K + k0 + p];
            }
            tile_a[p * BM + r] = v;
        }
        for (var i = li; i < BK * BN; i += TX * TY) {
            let p = i / BN;
            let c = i % BN;
            var v = 0.0;
            if (k0 + p < k_end && col0 + c < N) {
                v = b[(k0 + p) * N + col0 + c];
            }
            tile_b[p * BN + c] = v;
        }
        workgroupBarrier();
        for (var p = 0u; p < BK; p++) {
            for (var r = 0u; r < R; r++) {
                a_reg[r] = tile_a[p * BM + lid.y * R + r];
            }
            // Columns TX apart: neighbouring invocations read neighbouring words.
            for (var c = 0u; c < C; c++) {
                b_reg[c] = tile_b[p * BN + lid.x + c * TX];
            }
            for (var r = 0u; r < R; r++) {
                for (var c = 0u; c < C; c++) {
                    acc[r * C + c] = fma(a_reg[r], b_reg[c], acc[r * C + c]);
                }
            }
        }
        workgroupBarrier();
    }
    let base = wg.z * M * N;
    for (var r = 0u; r < R; r++) {
        let row = row0 + lid.y * R + r;
        for (var c = 0u; c < C; c++) {
            let col = col0 + lid.x + c * TX;
            if (row < M && col < N) {
                partial[base + row * N + col] = acc[r * C + c];
            }
        }
    }
}
