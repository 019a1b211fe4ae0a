//! The roofs of the machine this program runs on, measured here, for when the adapter is the CPU
//! itself (lavapipe): memory bandwidth from a STREAM-style triad on every core, and peak f32
//! FLOP/s from a loop of independent fused multiply-adds on every core.
//!
//! Both are what a program can reach, not a data sheet's promise; the triad counts the bytes it
//! asks for (two reads, one write), not the extra read a cache does before writing a line.

use std::hint::black_box;
use std::time::Instant;

use rayon::prelude::*;

pub struct CpuRoofs {
    pub peak_flops: f64,
    pub bandwidth: f64,
    /// How each roof was measured, for the sidecar.
    pub notes: Vec<String>,
}

/// Floats per triad array: 64 MiB each, far beyond any last-level cache.
const TRIAD_LEN: usize = 1 << 24;
const REPEATS: usize = 5;

pub fn measure() -> CpuRoofs {
    let threads = rayon::current_num_threads();
    let bandwidth = triad_bandwidth();
    let (peak_flops, how) = fma_peak();
    CpuRoofs {
        peak_flops,
        bandwidth,
        notes: vec![
            format!(
                "memory bandwidth measured: triad a = b + s·c on {threads} threads, 3 arrays of {} MiB, \
                 12 bytes counted per element, best of {REPEATS}: {:.1} GB/s",
                (TRIAD_LEN * 4) >> 20,
                bandwidth / 1e9
            ),
            format!(
                "peak f32 FLOP/s measured: {how} on {threads} threads, best of {REPEATS}: {:.1} GFLOP/s",
                peak_flops / 1e9
            ),
        ],
    }
}

fn triad_bandwidth() -> f64 {
    // Filled in parallel, so each thread's pages are touched (and placed) before timing.
    let b: Vec<f32> = (0..TRIAD_LEN).into_par_iter().map(|i| i as f32).collect();
    let c: Vec<f32> = (0..TRIAD_LEN)
        .into_par_iter()
        .map(|i| 1.0 / (1.0 + i as f32))
        .collect();
    let mut a = vec![0f32; TRIAD_LEN];
    let bytes = 12.0 * TRIAD_LEN as f64;
    let mut best = 0f64;
    for _ in 0..REPEATS {
        let start = Instant::now();
        a.par_chunks_mut(1 << 16)
            .zip(b.par_chunks(1 << 16))
            .zip(c.par_chunks(1 << 16))
            .for_each(|((a, b), c)| {
                for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                    *a = b + 3.0 * c;
                }
            });
        black_box(&a);
        best = best.max(bytes / start.elapsed().as_secs_f64());
    }
    best
}

/// Independent accumulators per thread: enough to cover the FMA latency on two units.
const CHAINS: usize = 10;
const STEPS: usize = 20_000_000;

fn fma_peak() -> (f64, &'static str) {
    let threads = rayon::current_num_threads();
    let (per_thread, how): (fn() -> f64, _) = pick_kernel();
    let mut best = 0f64;
    for _ in 0..REPEATS {
        let start = Instant::now();
        let flops: f64 = (0..threads).into_par_iter().map(|_| per_thread()).sum();
        best = best.max(flops / start.elapsed().as_secs_f64());
    }
    (best, how)
}

#[cfg(target_arch = "x86_64")]
fn pick_kernel() -> (fn() -> f64, &'static str) {
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the features the function is compiled for were just detected on this CPU.
        (
            || unsafe { fma_avx2() },
            "256-bit FMA (8 f32 lanes × 2 FLOP), 10 independent chains",
        )
    } else {
        (
            portable,
            "multiply then add on [f32; 8] arrays (no FMA detected)",
        )
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn pick_kernel() -> (fn() -> f64, &'static str) {
    (portable, "multiply then add on [f32; 8] arrays")
}

/// Returns the FLOPs it did.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fma_avx2() -> f64 {
    use std::arch::x86_64::*;
    let mul = _mm256_set1_ps(black_box(0.999_999));
    let add = _mm256_set1_ps(black_box(1e-7));
    let mut acc = [_mm256_set1_ps(1.0); CHAINS];
    for _ in 0..STEPS {
        for a in &mut acc {
            *a = _mm256_fmadd_ps(*a, mul, add);
        }
    }
    black_box(acc);
    (STEPS * CHAINS * 8 * 2) as f64
}

fn portable() -> f64 {
    let mul = black_box(0.999_999f32);
    let add = black_box(1e-7f32);
    let mut acc = [[1f32; 8]; CHAINS];
    for _ in 0..STEPS {
        for chain in &mut acc {
            for a in chain.iter_mut() {
                *a = *a * mul + add;
            }
        }
    }
    black_box(acc);
    (STEPS * CHAINS * 8 * 2) as f64
}
