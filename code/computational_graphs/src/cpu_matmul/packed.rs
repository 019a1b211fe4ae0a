//! A packed, cache-blocked matrix multiply with a register micro-kernel: the structure of
//! BLIS (Van Zee and van de Geijn, "BLIS: A Framework for Rapidly Instantiating BLAS
//! Functionality", ACM TOMS 2015) and of the `matrixmultiply` crate, written to be read.
//!
//! Five loops around a micro-kernel. From the outside in:
//!
//! 1. `jc`: NC columns of B and C at a time (a panel of B sized for the L3 cache);
//! 2. `pc`: KC steps of k at a time; B's KC×NC block is **packed** into NR-wide strips, each
//!    stored k-major, so the micro-kernel reads it front to back;
//! 3. `ic`: MC rows of A at a time; A's MC×KC block is packed into MR-tall strips (L2-sized);
//! 4. `jr`, 5. `ir`: one MR×NR tile of C per micro-kernel call, its KC-long strips of A and B
//!    streaming from L1 while the MR×NR sums stay in registers.
//!
//! Packing copies each block once and then reuses it many times (B's block MC/MR·… times, A's
//! NC/NR times), and it pads edge strips with zeros, so the micro-kernel never tests an edge.

use rayon::prelude::*;

/// Rows of the register tile. MR×NR = 4×8 accumulators fill 8 of the 16 SIMD registers of
/// baseline x86-64 (SSE2, 4 floats each) and leave room for the strips' values.
pub const MR: usize = 4;
/// Columns of the register tile.
pub const NR: usize = 8;
/// k-depth of a packed block: KC·(MR + NR) floats of strips stay in L1 (12 KiB at 256).
pub const KC: usize = 256;
/// Rows of A per packed block: MC·KC floats (64 KiB at 64×256) stay in L2.
pub const MC: usize = 64;
/// Columns of B per packed block: KC·NC floats (1 MiB at 256×1024) stay in L3.
pub const NC: usize = 1024;

// ANCHOR: micro_kernel
/// The micro-kernel: acc (MR×NR) = Σ_p a_strip[p] ⊗ b_strip[p], over `kc` steps.
/// `a` holds MR values per step, `b` NR values per step. Fixed sizes let the compiler keep
/// `acc` in registers and turn the inner loops into SIMD multiply-adds.
fn micro_kernel(kc: usize, a: &[f32], b: &[f32]) -> [[f32; NR]; MR] {
    let mut acc = [[0.0f32; NR]; MR];
    for (a_p, b_p) in a.chunks_exact(MR).zip(b.chunks_exact(NR)).take(kc) {
        for (acc_row, &a_i) in acc.iter_mut().zip(a_p) {
            for (acc_ij, &b_j) in acc_row.iter_mut().zip(b_p) {
                *acc_ij += a_i * b_j;
            }
        }
    }
    acc
}
// ANCHOR_END: micro_kernel

// ANCHOR: pack
/// Packs a `rows`-tall, `kc`-deep block into `TILE`-tall strips, each k-major: strip s, step p,
/// row i is at `s·kc·TILE + p·TILE + i`; `at(i, p)` reads element (row i, step p) of the block,
/// and rows past the edge are zeros. One function for A (strips of MR rows) and B (strips of NR
/// columns, read transposed).
#[inline(always)]
fn pack<const TILE: usize>(
    rows: usize,
    kc: usize,
    at: impl Fn(usize, usize) -> f32,
    out: &mut Vec<f32>,
) {
    out.clear();
    for s in (0..rows).step_by(TILE) {
        for p in 0..kc {
            out.extend((s..s + TILE).map(|i| if i < rows { at(i, p) } else { 0.0 }));
        }
    }
}
// ANCHOR_END: pack

/// Adds one MC×NC block product to C (row `i` of the block is row `i0 + i` of `c`, columns
/// `j0..j0+nc`), from packed A and B, one MR×NR tile per call of `K`. Indexing `c` from its
/// start, not a sub-slice of the block's rows, keeps the AVX-512 kernel vectorised: with a
/// sub-slice LLVM left its 8×32 tile in scalar FMAs, 20× slower.
// Nine plain numbers and slices: a struct for them would hide the loop structure being taught.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_product<K: MicroKernel<MR, NR>, const MR: usize, const NR: usize>(
    packed_a: &[f32],
    packed_b: &[f32],
    kc: usize,
    mc: usize,
    nc: usize,
    c: &mut [f32],
    i0: usize,
    n: usize,
    j0: usize,
) {
    for jr in (0..nc).step_by(NR) {
        let b_strip = &packed_b[jr * kc..(jr + NR) * kc];
        for ir in (0..mc).step_by(MR) {
            let a_strip = &packed_a[ir * kc..(ir + MR) * kc];
            let acc = K::tile(kc, a_strip, b_strip);
            // Only the part of the tile inside C is added back.
            for (i, acc_row) in acc.iter().enumerate().take((mc - ir).min(MR)) {
                let row = &mut c[(i0 + ir + i) * n + j0 + jr..];
                for (c_ij, v) in row.iter_mut().zip(acc_row).take((nc - jr).min(NR)) {
                    *c_ij += v;
                }
            }
        }
    }
}

/// A register micro-kernel for an MR×NR tile: what the five loops call.
pub(super) trait MicroKernel<const MR: usize, const NR: usize> {
    /// The tile of sums over `kc` steps: `a` holds MR values per step, `b` NR values per step.
    fn tile(kc: usize, a: &[f32], b: &[f32]) -> [[f32; NR]; MR];
}

/// The [`micro_kernel`] above, for baseline x86-64.
struct Portable;

impl MicroKernel<MR, NR> for Portable {
    #[inline(always)]
    fn tile(kc: usize, a: &[f32], b: &[f32]) -> [[f32; NR]; MR] {
        micro_kernel(kc, a, b)
    }
}

// ANCHOR: packed
/// C (m×n) = A (m×k) · B (k×n), all row-major, through packed blocks and the micro-kernel.
pub fn packed(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    five_loops::<Portable, MR, NR, KC, MC, NC>(a, b, c, m, k, n);
}

/// The five loops around a micro-kernel, for any tile (MR×NR) and block sizes (KC deep, MC
/// rows, NC columns). Always inlined, so that a caller compiled for wider vector units
/// (`packed_fma.rs`) compiles the loops and its kernel for them too.
#[inline(always)]
pub(super) fn five_loops<
    K: MicroKernel<MR, NR>,
    const MR: usize,
    const NR: usize,
    const KC: usize,
    const MC: usize,
    const NC: usize,
>(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    m: usize,
    k: usize,
    n: usize,
) {
    c[..m * n].fill(0.0);
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    for j0 in (0..n).step_by(NC) {
        let nc = NC.min(n - j0);
        for p0 in (0..k).step_by(KC) {
            let kc = KC.min(k - p0);
            pack::<NR>(nc, kc, |j, p| b[(p0 + p) * n + j0 + j], &mut pb);
            for i0 in (0..m).step_by(MC) {
                let mc = MC.min(m - i0);
                pack::<MR>(mc, kc, |i, p| a[(i0 + i) * k + p0 + p], &mut pa);
                block_product::<K, MR, NR>(&pa, &pb, kc, mc, nc, c, i0, n, j0);
            }
        }
    }
}
// ANCHOR_END: packed

// ANCHOR: packed_parallel
/// [`packed`] with the `ic` loop on rayon: every task packs its own block of A and writes its
/// own MC rows of C; the packed block of B is shared, read-only.
pub fn packed_parallel(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    c[..m * n].fill(0.0);
    let mut pb = Vec::new();
    for j0 in (0..n).step_by(NC) {
        let nc = NC.min(n - j0);
        for p0 in (0..k).step_by(KC) {
            let kc = KC.min(k - p0);
            pack::<NR>(nc, kc, |j, p| b[(p0 + p) * n + j0 + j], &mut pb);
            let pb = &pb;
            c[..m * n]
                .par_chunks_mut(MC * n.max(1))
                .enumerate()
                .for_each_init(Vec::new, |pa, (band, c_rows)| {
                    let (i0, mc) = (band * MC, c_rows.len() / n);
                    pack::<MR>(mc, kc, |i, p| a[(i0 + i) * k + p0 + p], pa);
                    block_product::<Portable, MR, NR>(pa, pb, kc, mc, nc, c_rows, 0, n, j0);
                });
        }
    }
}
// ANCHOR_END: packed_parallel
