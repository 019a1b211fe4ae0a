//! Every rung of the matmul ladder against the CPU, on small odd shapes.

mod common;

use common::{assert_close, random};
use computational_graphs::Error;
use computational_graphs::matmul_ladder::{Rung, matmul};
use computational_graphs::ops::cpu;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

fn reference(a: &Tensor2D, b: &Tensor2D) -> Tensor2D {
    cpu::linear(a, b, &Tensor2D::zeros(1, b.cols())).unwrap()
}

fn check(rung: Rung, shapes: &[(usize, usize, usize)]) {
    let ctx = GpuContext::for_tests();
    for (i, &(m, k, n)) in shapes.iter().enumerate() {
        let (a, b) = (random(m, k, i as u64), random(k, n, 50 + i as u64));
        let got = matmul(&ctx, rung, &a, &b).unwrap();
        assert_close(
            &got,
            &reference(&a, &b),
            &format!("{} at {m}×{k}×{n}", rung.name()),
        );
    }
}

const ODD: [(usize, usize, usize); 4] = [(1, 1, 1), (17, 33, 20), (70, 9, 130), (65, 70, 129)];

#[test]
fn naive_is_correct() {
    check(Rung::Naive, &ODD);
}

#[test]
fn coalesced_is_correct() {
    check(Rung::Coalesced, &ODD);
}

#[test]
fn tiled_is_correct() {
    check(Rung::Tiled, &ODD);
}

#[test]
fn register_blocked_is_correct() {
    check(Rung::RegisterBlocked, &ODD);
}

#[test]
fn vec4_is_correct_on_multiples_of_four() {
    check(Rung::Vec4, &[(1, 4, 4), (37, 20, 44), (130, 12, 136)]);
}

/// Odd and prime sizes, a single row, a single column, and one shape the 128×128 blocks tile
/// exactly (the only one where the unchecked kernel drops its edge tests).
/// (Each shape is a pipeline of its own, and lavapipe takes seconds to compile one.)
const TUNED: [(usize, usize, usize); 4] = [(1, 37, 61), (61, 37, 1), (131, 7, 129), (128, 32, 128)];

#[test]
fn bk16_is_correct_on_odd_shapes() {
    check(Rung::Bk16, &TUNED);
}

#[test]
fn prefetch_is_correct_on_odd_shapes() {
    check(Rung::Prefetch, &TUNED);
}

#[test]
fn unchecked_is_correct_and_only_unchecked_on_exact_shapes() {
    check(Rung::Unchecked, &TUNED);
    for &(m, k, n) in &TUNED {
        let t = Rung::Unchecked.tuning(m, k, n).unwrap();
        let exact = m % 128 == 0 && n % 128 == 0 && k % 16 == 0;
        assert_eq!(t.is_in_bounds_by_construction(), exact, "{m}×{k}×{n}");
    }
}

#[test]
fn zero_sized_products_are_rejected_by_every_rung() {
    let ctx = GpuContext::for_tests();
    for rung in Rung::ALL {
        for (m, k, n) in [(0, 4, 4), (4, 0, 4), (4, 4, 0)] {
            let err = rung.check(&ctx, m, k, n).unwrap_err();
            assert!(err.to_string().contains("zero-sized"), "{err}");
        }
    }
}

// ANCHOR: limits_test
#[test]
fn unsupported_shapes_and_oversized_tensors_fail_before_dispatch() {
    let ctx = GpuContext::for_tests();
    let err = Rung::Vec4.check(&ctx, 8, 8, 45).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Unsupported {
                kernel: "vec4 8x8",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("multiples of 4"), "{err}");
    // A 40000×40000 f32 matrix is 6.4 GB: more than any device lets one binding hold.
    let err = Rung::Naive.check(&ctx, 40_000, 40_000, 8).unwrap_err();
    assert!(
        err.to_string()
            .contains("buffer \"A\" needs 6400000000 bytes"),
        "{err}"
    );
    assert_eq!(
        ctx.pipelines.compilations(),
        0,
        "nothing was compiled or dispatched"
    );
}
// ANCHOR_END: limits_test
