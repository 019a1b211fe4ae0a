//! Every rung of the matmul ladder against the CPU, on small odd shapes.

mod common;

use common::{assert_close, random};
use computational_graphs::Error;
use computational_graphs::matmul_ladder::tuned::{Pipelining, Tuning, source_with};
use computational_graphs::matmul_ladder::{PreparedMatmul, Rung, matmul};
use computational_graphs::ops::cpu;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, Requirements, wgpu};

fn reference(a: &Tensor2D, b: &Tensor2D) -> Tensor2D {
    cpu::linear(a, b, &Tensor2D::zeros(1, b.cols())).unwrap()
}

fn check(rung: Rung, shapes: &[(usize, usize, usize)]) {
    check_on(&GpuContext::for_tests(), rung, shapes);
}

fn check_on(ctx: &GpuContext, rung: Rung, shapes: &[(usize, usize, usize)]) {
    for (i, &(m, k, n)) in shapes.iter().enumerate() {
        let (a, b) = (random(m, k, i as u64), random(k, n, 50 + i as u64));
        let got = matmul(ctx, rung, &a, &b).unwrap();
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
fn bk16_unchecked_is_correct_and_only_unchecked_on_exact_shapes() {
    check(Rung::Bk16Unchecked, &TUNED);
    let ctx = GpuContext::for_tests();
    for &(m, k, n) in &TUNED {
        let t = Rung::Bk16Unchecked.tuning(m, k, n).unwrap();
        assert!(!t.prefetch);
        let p = Rung::Bk16Unchecked.pipelining(&ctx).unwrap();
        let exact = m % 128 == 0 && n % 128 == 0 && k % 16 == 0;
        assert_eq!(t.is_in_bounds_with(&p), exact, "{m}×{k}×{n}");
    }
}

#[test]
fn double_buffered_is_correct_and_only_unchecked_on_exact_shapes() {
    let ctx = GpuContext::for_tests();
    // Three exact k-steps and more: both tile sets are read and written more than once.
    check_on(
        &ctx,
        Rung::DoubleBuffered,
        &[
            (1, 37, 61),
            (61, 37, 1),
            (131, 7, 129),
            (128, 64, 128),
            (256, 48, 128),
        ],
    );
    let p = Rung::DoubleBuffered.pipelining(&ctx).unwrap();
    assert!(p.double_buffer && p.subgroup.is_none());
    let limit = ctx.device.limits().max_compute_workgroup_storage_size;
    assert!(Tuning::LARGE.workgroup_bytes(&p) <= limit);
    for &(m, k, n) in &TUNED {
        let t = Rung::DoubleBuffered.tuning(m, k, n).unwrap();
        let exact = m % 128 == 0 && n % 128 == 0 && k % 16 == 0;
        assert_eq!(t.is_in_bounds_with(&p), exact, "{m}×{k}×{n}");
    }
}

/// The three schedules of a prefetching kernel (one tile set; two with the set in a variable;
/// two with two steps per trip) on odd shapes, and on exact ones with an odd and an even number
/// of k-steps, with blocks small enough for any device's workgroup memory.
#[test]
fn every_tile_schedule_is_correct() {
    let ctx = GpuContext::for_tests();
    let t = Tuning {
        threads: (8, 8),
        ..Tuning::LARGE
    };
    let schedules = [
        Pipelining::default(),
        Pipelining {
            double_buffer: true,
            ..Default::default()
        },
        Pipelining {
            double_buffer: true,
            two_steps_per_trip: true,
            ..Default::default()
        },
    ];
    for p in schedules {
        for (i, (m, k, n)) in [
            (61, 37, 1),
            (1, 37, 61),
            (67, 23, 71),
            (128, 48, 64),
            (64, 64, 128),
        ]
        .into_iter()
        .enumerate()
        {
            let (a, b) = (random(m, k, 10 + i as u64), random(k, n, 20 + i as u64));
            let kernel = t.for_shape(m, k, n);
            let got = PreparedMatmul::tuned_with(&ctx, &kernel, &p, &a, &b, None)
                .and_then(|prepared| {
                    let mut encoder = ctx.device.create_command_encoder(&Default::default());
                    prepared.record(&mut encoder, 1);
                    ctx.queue.submit([encoder.finish()]);
                    prepared.result(&ctx)
                })
                .unwrap();
            assert_close(&got, &reference(&a, &b), &format!("{p:?} at {m}×{k}×{n}"));
            let exact = m % 64 == 0 && n % 64 == 0 && k % 16 == 0;
            assert_eq!(kernel.is_in_bounds_with(&p), exact, "{p:?} at {m}×{k}×{n}");
        }
    }
}

/// A device opened with subgroup operations where the adapter has them.
fn subgroup_context() -> GpuContext {
    GpuContext::with_requirements(&Requirements {
        optional_features: wgpu::Features::SUBGROUP,
        ..Default::default()
    })
    .expect("this is a GPU test and it needs an adapter")
}

#[test]
fn subgroup_shuffle_is_correct_where_the_adapter_has_subgroups() {
    let ctx = subgroup_context();
    let info = ctx.adapter.get_info();
    let offered = ctx.adapter.features().contains(wgpu::Features::SUBGROUP)
        && info.subgroup_min_size == info.subgroup_max_size;
    match Rung::SubgroupShuffle.pipelining(&ctx) {
        Ok(p) => {
            assert_eq!(p.subgroup, Some(info.subgroup_min_size));
            check_on(
                &ctx,
                Rung::SubgroupShuffle,
                &[
                    (1, 37, 61),
                    (61, 37, 1),
                    (131, 7, 129),
                    (128, 64, 128),
                    (256, 48, 128),
                ],
            );
        }
        // Only an adapter without one subgroup size may refuse, and it says so in a typed error.
        Err(e) => {
            assert!(
                !offered,
                "{} offers subgroups of one size but refused: {e}",
                info.name
            );
            assert!(matches!(e, Error::AdapterLacks { .. }), "{e}");
        }
    }
}

#[test]
fn subgroup_shuffle_refuses_a_device_opened_without_subgroups() {
    let ctx = GpuContext::for_tests();
    assert!(!ctx.device.features().contains(wgpu::Features::SUBGROUP));
    let (a, b) = (random(8, 8, 1), random(8, 8, 2));
    let err = matmul(&ctx, Rung::SubgroupShuffle, &a, &b).unwrap_err();
    assert!(
        matches!(
            err,
            Error::AdapterLacks {
                kernel: "subgroup-shuffle unchecked 8x8",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("SUBGROUP"), "{err}");
}

/// Every subgroup size WebGPU allows: the kernel is generated for it, or refused with a reason.
#[test]
fn subgroup_kernels_generate_for_every_size_that_fits() {
    for size in [4, 8, 16, 32, 64, 128] {
        let p = Pipelining {
            double_buffer: true,
            subgroup: Some(size),
            ..Default::default()
        };
        let t = Tuning::LARGE.for_shape(256, 64, 256);
        assert!(Tuning::LARGE.subgroup_fit(size).is_ok(), "{size}");
        let wgsl = source_with(&t, &p).unwrap();
        assert!(wgsl.contains("subgroupShuffle"), "{size}");
        assert!(t.is_in_bounds_with(&p), "{size}");
    }
    // 24 does not divide 256 invocations, and 8 lanes per row cannot share a k-step of 4.
    assert!(Tuning::LARGE.subgroup_fit(24).is_err());
    assert!(
        Tuning {
            bk: 4,
            ..Tuning::LARGE
        }
        .subgroup_fit(8)
        .is_err()
    );
}

#[test]
fn zero_sized_products_are_rejected_by_every_rung() {
    let ctx = GpuContext::for_tests();
    for rung in Rung::ALL.into_iter().chain(Rung::BEYOND) {
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
