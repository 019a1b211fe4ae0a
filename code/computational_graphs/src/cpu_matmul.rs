//! Matrix multiplication on the CPU: C (m×n) = A (m×k) · B (k×n), row-major. Naive, ikj,
//! cache-blocked and its rayon version here; packed blocks around a register micro-kernel (the
//! BLIS structure) and its rayon version in [`packed`].

pub mod packed;
pub mod packed_fma;

use rayon::prelude::*;

pub use packed::{packed, packed_parallel};
pub use packed_fma::{packed_fma, packed_fma_parallel};

// ANCHOR: naive
/// The textbook triple loop (i, j, p). The inner loop walks down a column of B: each step
/// jumps n floats ahead, so nearly every load misses the cache once n is large.
pub fn naive(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0.0;
            for p in 0..k {
                acc += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = acc;
        }
    }
}
// ANCHOR_END: naive

// ANCHOR: ikj
/// The same sums with the loops in (i, p, j) order: the inner loop walks along a row of B and
/// a row of C, contiguous memory that the compiler turns into SIMD instructions.
pub fn ikj(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    c[..m * n].fill(0.0);
    for i in 0..m {
        let c_row = &mut c[i * n..(i + 1) * n];
        for p in 0..k {
            let a_ip = a[i * k + p];
            for (c_ij, b_pj) in c_row.iter_mut().zip(&b[p * n..(p + 1) * n]) {
                *c_ij += a_ip * b_pj;
            }
        }
    }
}
// ANCHOR_END: ikj

/// Block edge for [`blocked`]: three 64×64 f32 blocks (48 KiB) sit in a typical L2.
pub const BLOCK: usize = 64;

// ANCHOR: blocked
/// ikj order inside BLOCK×BLOCK blocks, so the block of B being reused stays in cache while
/// a block of rows of A streams past it.
pub fn blocked(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    c[..m * n].fill(0.0);
    for i0 in (0..m).step_by(BLOCK) {
        block_rows(a, b, &mut c[i0 * n..(i0 + BLOCK).min(m) * n], i0, k, n);
    }
}

/// Rows `i0..` of C (as many as `c_rows` holds), blocked over p and j.
fn block_rows(a: &[f32], b: &[f32], c_rows: &mut [f32], i0: usize, k: usize, n: usize) {
    let rows = c_rows.len() / n.max(1);
    for p0 in (0..k).step_by(BLOCK) {
        for j0 in (0..n).step_by(BLOCK) {
            let (p1, j1) = ((p0 + BLOCK).min(k), (j0 + BLOCK).min(n));
            for i in 0..rows {
                let c_row = &mut c_rows[i * n + j0..i * n + j1];
                for p in p0..p1 {
                    let a_ip = a[(i0 + i) * k + p];
                    for (c_ij, b_pj) in c_row.iter_mut().zip(&b[p * n + j0..p * n + j1]) {
                        *c_ij += a_ip * b_pj;
                    }
                }
            }
        }
    }
}
// ANCHOR_END: blocked

// ANCHOR: parallel
/// The blocked version with each band of BLOCK rows of C on its own rayon task: bands write
/// disjoint slices of C, so no locks are needed (the borrow checker can see that).
pub fn parallel(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    c[..m * n].fill(0.0);
    c[..m * n]
        .par_chunks_mut(BLOCK * n.max(1))
        .enumerate()
        .for_each(|(band, c_rows)| block_rows(a, b, c_rows, band * BLOCK, k, n));
}
// ANCHOR_END: parallel

/// The `matrixmultiply` crate's sgemm, the yardstick (hand-tuned packing and SIMD kernels).
pub fn reference(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    // SAFETY: the slices hold m×k, k×n and m×n floats (checked by the asserts), row-major with
    // the strides given, and c does not overlap a or b (it is a distinct &mut).
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}
