//! The packed multiply of [`super::packed`] with a micro-kernel for AVX2 and FMA, chosen at run
//! time: what `matrixmultiply` does, and what a binary built for baseline x86-64 (SSE2) cannot do
//! by itself.
//!
//! Two things change, and both follow from the instruction set. A 256-bit register holds 8
//! floats, so a 6×16 tile of C is 12 registers; and an FMA's result is ready only 4 cycles or so
//! after it starts, while a core can start 2 per cycle: about 8 independent accumulators are
//! needed to keep it busy, and 12 leave room. The tile is 6×16 for that reason (the shape BLIS
//! uses on Haswell). Where the CPU has AVX-512 (32 registers of 16 floats), an 8×32 tile uses 16
//! of them. The rest — packing, the five loops, zero padding at the edges — is `packed.rs`'s
//! `five_loops`, with this file's kernel and the tile's and the blocks' sizes as parameters.

/// The AVX2 kernel's tile: 6 rows × 16 columns (two 8-float registers per row).
pub const AVX2_TILE: (usize, usize) = (6, 16);
/// The AVX-512 kernel's tile: 8 rows × 32 columns (two 16-float registers per row).
pub const AVX512_TILE: (usize, usize) = (8, 32);

/// Which micro-kernel [`packed_fma`] runs on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Avx512,
    Avx2Fma,
    /// No AVX2+FMA: the portable kernel of `packed.rs`.
    Portable,
}

/// The widest kernel this CPU can run.
pub fn kernel() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("fma") {
            return Kernel::Avx512;
        }
        if has!("avx2") && has!("fma") {
            return Kernel::Avx2Fma;
        }
    }
    Kernel::Portable
}

/// C (m×n) = A (m×k) · B (k×n), row-major, with the widest micro-kernel the CPU has.
pub fn packed_fma(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    packed_with(kernel(), a, b, c, m, k, n);
}

/// [`packed_fma`] on rayon: C is cut into one band of rows per thread, and each task runs the
/// whole single-threaded multiply (`packed_with`) on its band of A's rows.
///
/// Each task packs all of B for itself, which a shared packed B would save. The tasks call the
/// single-threaded path because that is the code LLVM vectorises well: with the block product
/// in a rayon closure, or in a `target_feature` function called from one, it kept the 8×32
/// accumulators in memory and moved them with gathers and scatters, many times slower.
pub fn packed_fma_parallel(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    packed_parallel_with(kernel(), a, b, c, m, k, n);
}

// ANCHOR: fma_parallel
/// [`packed_fma_parallel`] with a chosen kernel; one the CPU lacks falls back to the portable one.
pub fn packed_parallel_with(
    kernel: Kernel,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    m: usize,
    k: usize,
    n: usize,
) {
    use rayon::prelude::*;
    if m == 0 || n == 0 || k == 0 {
        // Nothing to split: the single-threaded multiply fills C (with zeros when k is 0).
        return packed_with(kernel, a, b, c, m, k, n);
    }
    // Bands of a multiple of 8 rows (the AVX-512 tile's height), one or more per thread.
    let band = m.div_ceil(rayon::current_num_threads()).next_multiple_of(8);
    c[..m * n]
        .par_chunks_mut(band * n)
        .zip(a[..m * k].par_chunks(band * k))
        .for_each(|(c_band, a_band)| {
            let rows = c_band.len() / n;
            packed_with(kernel, a_band, b, c_band, rows, k, n);
        });
}
// ANCHOR_END: fma_parallel

/// [`packed_fma`] with a chosen kernel; one the CPU lacks falls back to the portable one.
pub fn packed_with(
    kernel: Kernel,
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    m: usize,
    k: usize,
    n: usize,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        match kernel {
            // SAFETY: each arm runs only on a CPU with the features its function enables,
            // which is all that `target_feature` asks of the caller.
            Kernel::Avx512 if has!("avx512f") && has!("fma") => {
                return unsafe { x86::packed_avx512(a, b, c, m, k, n) };
            }
            Kernel::Avx2Fma if has!("avx2") && has!("fma") => {
                return unsafe { x86::packed_avx2(a, b, c, m, k, n) };
            }
            _ => {}
        }
    }
    let _ = kernel;
    super::packed(a, b, c, m, k, n);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::packed::{MicroKernel, five_loops};

    /// [`micro_kernel`] for the five loops of `packed.rs`.
    struct Fma;

    impl<const MR: usize, const NR: usize> MicroKernel<MR, NR> for Fma {
        #[inline(always)]
        fn tile(kc: usize, a: &[f32], b: &[f32]) -> [[f32; NR]; MR] {
            micro_kernel::<MR, NR>(kc, a, b)
        }
    }

    // ANCHOR: fma_kernel
    /// acc (MR×NR) = Σ_p a_strip[p] ⊗ b_strip[p]. Inlined into a function compiled with the
    /// `fma` feature, `mul_add` is one FMA instruction (without it, a library call); the fixed
    /// sizes let LLVM keep `acc` in registers: 12 of AVX2's 16, or 16 of AVX-512's 32.
    #[inline(always)]
    fn micro_kernel<const MR: usize, const NR: usize>(
        kc: usize,
        a: &[f32],
        b: &[f32],
    ) -> [[f32; NR]; MR] {
        let mut acc = [[0.0f32; NR]; MR];
        for (a_p, b_p) in a.chunks_exact(MR).zip(b.chunks_exact(NR)).take(kc) {
            for (acc_row, &a_i) in acc.iter_mut().zip(a_p) {
                for (acc_ij, &b_j) in acc_row.iter_mut().zip(b_p) {
                    *acc_ij = a_i.mul_add(b_j, *acc_ij);
                }
            }
        }
        acc
    }
    // ANCHOR_END: fma_kernel

    // ANCHOR: entry_points
    /// 6×16 tiles; a B strip of 256 steps is 16 KiB, an A block of 72 rows 72 KiB.
    #[target_feature(enable = "avx2,fma")]
    pub fn packed_avx2(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
        five_loops::<Fma, 6, 16, 256, 72, 1024>(a, b, c, m, k, n);
    }

    /// 8×32 tiles; 128 steps keep a B strip at 16 KiB, so it stays in L1 beside the A strip.
    #[target_feature(enable = "avx512f,fma")]
    pub fn packed_avx512(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
        five_loops::<Fma, 8, 32, 128, 96, 1024>(a, b, c, m, k, n);
    }
    // ANCHOR_END: entry_points
}
