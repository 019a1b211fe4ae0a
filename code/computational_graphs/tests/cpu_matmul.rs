//! The CPU matmul variants agree with each other and with matrixmultiply.

use computational_graphs::cpu_matmul;
use computational_graphs::rng::SplitMix64;

type Matmul = fn(&[f32], &[f32], &mut [f32], usize, usize, usize);

/// Each variant against `matrixmultiply` on 1×N, N×1, odd shapes, and (70, 260, 1030): past one
/// packed block in every direction.
fn all_match_the_reference(variants: &[(&str, Matmul)]) {
    let mut rng = SplitMix64::new(9);
    let shapes = [
        (1, 1, 1),
        (1, 37, 61),
        (61, 37, 1),
        (3, 5, 7),
        (65, 130, 67),
        (128, 64, 200),
        (70, 260, 1030),
    ];
    for (m, k, n) in shapes {
        let a: Vec<f32> = (0..m * k).map(|_| rng.symmetric(1.0)).collect();
        let b: Vec<f32> = (0..k * n).map(|_| rng.symmetric(1.0)).collect();
        let mut want = vec![0.0; m * n];
        cpu_matmul::reference(&a, &b, &mut want, m, k, n);
        for &(name, f) in variants {
            let mut got = vec![f32::NAN; m * n];
            f(&a, &b, &mut got, m, k, n);
            let diff = got
                .iter()
                .zip(&want)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f32::max);
            assert!(diff < 1e-3, "{name} at {m}×{k}×{n}: off by {diff}");
        }
    }
}

#[test]
fn every_cpu_variant_matches_the_reference() {
    all_match_the_reference(&[
        ("naive", cpu_matmul::naive),
        ("ikj", cpu_matmul::ikj),
        ("blocked", cpu_matmul::blocked),
        ("parallel", cpu_matmul::parallel),
        ("packed", cpu_matmul::packed),
        ("packed_parallel", cpu_matmul::packed_parallel),
        ("packed_fma", cpu_matmul::packed_fma),
        ("packed_fma_parallel", cpu_matmul::packed_fma_parallel),
    ]);
}

/// Every kernel this CPU has, not only the widest one `packed_fma` picks, on one thread and on
/// rayon.
#[test]
fn every_packed_kernel_matches_the_reference() {
    use cpu_matmul::packed_fma::{Kernel, packed_parallel_with, packed_with};
    all_match_the_reference(&[
        ("avx512", |a, b, c, m, k, n| {
            packed_with(Kernel::Avx512, a, b, c, m, k, n)
        }),
        ("avx2", |a, b, c, m, k, n| {
            packed_with(Kernel::Avx2Fma, a, b, c, m, k, n)
        }),
        ("portable", |a, b, c, m, k, n| {
            packed_with(Kernel::Portable, a, b, c, m, k, n)
        }),
        ("avx512 on rayon", |a, b, c, m, k, n| {
            packed_parallel_with(Kernel::Avx512, a, b, c, m, k, n)
        }),
        ("avx2 on rayon", |a, b, c, m, k, n| {
            packed_parallel_with(Kernel::Avx2Fma, a, b, c, m, k, n)
        }),
    ]);
}
