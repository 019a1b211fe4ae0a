// ANCHOR: gemm_tiled_setup
// C (m×n, f32) = A (m×K) · Bᵀ (n×K). A and B are rows of `words` WORDs, each holding four
// values (vec4<f32>, vec4<f16> or four int8 bytes in a u32), so one kernel serves every type.
// params: [m, n, words]
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<WORD>;
@group(0) @binding(2) var<storage, read> b: array<WORD>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

const T: u32 = 16u;
var<workgroup> tile_a: array<array<WORD, 16>, 16>;
var<workgroup> tile_b: array<array<WORD, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) g: vec3<u32>) {
    let m = params[0];
    let n = params[1];
    let words = params[2];
    let row = g.y * T + l.y;
    let col = g.x * T + l.x;
    let b_row = g.x * T + l.y; // this thread loads one word of B's row b_row
    var acc = ACC_ZERO;
// ANCHOR_END: gemm_tiled_setup
// ANCHOR: gemm_tiled_loop
    for (var t = 0u; t < words; t += T) {
        var wa = WORD_ZERO;
        var wb = WORD_ZERO;
        if row < m && t + l.x < words {
            wa = a[row * words + t + l.x];
        }
        if b_row < n && t + l.x < words {
            wb = b[b_row * words + t + l.x];
        }
        tile_a[l.y][l.x] = wa;
        tile_b[l.y][l.x] = wb;
        workgroupBarrier();
        for (var i = 0u; i < T; i++) {
            acc += DOT(tile_a[l.y][i], tile_b[l.x][i]);
        }
        workgroupBarrier();
    }
    if row < m && col < n {
        c[row * n + col] = f32(acc);
    }
}
// ANCHOR_END: gemm_tiled_loop
