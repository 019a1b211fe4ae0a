//! Every demo's GPU code, run natively (lavapipe in CI) under `pollster::block_on`: the same
//! functions the browser awaits. Each result is checked against its CPU reference, and each demo
//! refuses a choice it does not offer with an error that lists the ones it does.

use book_demos::graph_modes::{self, Mode};
use book_demos::histogram::{self, Kernel, Pattern};
use book_demos::timestamps::PassTimer;
use book_demos::vector_add::{DispatchTime, run_vector_add};
use book_demos::{DemoError, VectorAdd, formats, matmul, reference};
use gpu_context::{GpuContext, Requirements, wgpu};
use pollster::block_on;
use quantization::gemm::{GemmInputs, GemmKind};

/// The context the browser asks for: f16 where the adapter has it.
fn context_with_f16() -> GpuContext {
    GpuContext::with_requirements(&Requirements {
        optional_features: wgpu::Features::SHADER_F16,
        ..Default::default()
    })
    .expect("this is a GPU test and it needs an adapter (lavapipe will do)")
}

fn assert_not_offered<T: std::fmt::Debug>(result: Result<T, DemoError>, listed: &str) {
    match result {
        Err(e @ DemoError::NotOffered { .. }) => {
            assert!(e.to_string().contains(listed), "{e}")
        }
        other => panic!("expected NotOffered, got {other:?}"),
    }
}

#[test]
fn gpu_demos_run_the_course_crates_kernels() {
    assert_eq!(book_demos::vector_add::SHADER, first_gpu_program::SHADER);
    assert_eq!(
        book_demos::histogram::SHADER,
        parallelism::gpu_histogram::SHADER
    );
}

#[test]
fn gpu_vector_add_matches_the_cpu_reference_and_the_native_program() {
    let ctx = GpuContext::for_tests();
    let (a, b) = reference::vector_add_inputs(10_000);
    let demo = VectorAdd::new(&ctx.device);
    let gpu = block_on(demo.run(&ctx.device, &ctx.queue, &a, &b)).unwrap();
    let check = reference::check(&gpu, &reference::cpu_vector_add(&a, &b));
    assert!(check.passed(), "{check:?}");
    assert_eq!(gpu, first_gpu_program::add_vectors(&ctx, &a, &b).unwrap());
    let report = block_on(book_demos::vector_add::run_vector_add(&ctx, 4099, false)).unwrap();
    assert!(report.display().passed(), "{report:?}");
    assert!(report.timing.median_ms > 0.0);
    assert!(report.dispatch.is_none());
}

#[test]
fn gpu_vector_add_times_its_pass_with_timestamps_where_the_device_has_them() {
    let with = GpuContext::with_requirements(&Requirements {
        features: wgpu::Features::TIMESTAMP_QUERY,
        ..Default::default()
    })
    .expect("lavapipe and GPUs offer timestamp queries");
    let report = block_on(run_vector_add(&with, 1 << 16, true)).unwrap();
    let Some(DispatchTime::Measured {
        median_ms, samples, ..
    }) = &report.dispatch
    else {
        panic!("{report:?}");
    };
    assert_eq!(samples.len(), book_demos::clock::SAMPLES);
    // The pass is part of the round trip, which also uploads, copies and maps.
    assert!(
        *median_ms > 0.0 && *median_ms < report.timing.median_ms,
        "{report:?}"
    );
    let notes = report.display().notes.join("\n");
    assert!(notes.contains("timestamp queries"), "{notes}");

    // A device opened without the feature gets no timer, and the box says so.
    let (device, queue) = block_on(
        with.adapter
            .request_device(&wgpu::DeviceDescriptor::default()),
    )
    .unwrap();
    assert!(!device.features().contains(wgpu::Features::TIMESTAMP_QUERY));
    assert!(PassTimer::new(&device, &queue).is_none());
    let notes = DispatchTime::NotOffered.describe(1.0);
    assert!(
        notes.contains("does not offer WebGPU's timestamp-query"),
        "{notes}"
    );
}

#[test]
fn gpu_vector_add_refuses_vectors_of_different_lengths() {
    let ctx = GpuContext::for_tests();
    let demo = VectorAdd::new(&ctx.device);
    let err = block_on(demo.run(&ctx.device, &ctx.queue, &[1.0], &[1.0, 2.0]));
    assert!(matches!(err, Err(DemoError::LengthMismatch { a: 1, b: 2 })));
    assert!(err.unwrap_err().to_string().contains("same length"));
    let empty = block_on(demo.run(&ctx.device, &ctx.queue, &[], &[])).unwrap();
    assert!(empty.is_empty());
}

#[test]
fn gpu_every_rung_of_the_ladder_matches_the_cpu() {
    let ctx = GpuContext::for_tests();
    let report = block_on(matmul::run_ladder(&ctx, 64)).unwrap();
    let rungs: Vec<_> = report.rungs.iter().map(|r| r.rung).collect();
    let all: Vec<_> = computational_graphs::matmul_ladder::Rung::ALL
        .iter()
        .map(|r| r.name())
        .collect();
    assert_eq!(rungs, all);
    for r in &report.rungs {
        assert!(r.check.passed(), "{}: {:?}", r.rung, r.check);
        assert_eq!(r.check.checked, 64 * 64);
        assert!(r.gflops > 0.0 && r.gflops.is_finite());
    }
    assert!(report.display().passed());
}

#[test]
fn gpu_the_ladders_bound_catches_a_wrong_element() {
    let (a, b) = matmul::inputs(64);
    let (want, bound) = matmul::cpu_product(&a, &b);
    let mut wrong: Vec<f32> = want.iter().map(|&x| x as f32).collect();
    assert!(reference::check_within(&wrong, &want, &bound).passed());
    // One product term dropped: far outside a bound of a few ulps.
    wrong[100] += a.get(1, 0) * b.get(0, 36);
    let check = reference::check_within(&wrong, &want, &bound);
    assert_eq!((check.mismatches, check.first_mismatch), (1, Some(100)));
}

#[test]
fn gpu_the_ladder_refuses_a_size_it_does_not_offer() {
    let ctx = GpuContext::for_tests();
    assert_not_offered(
        block_on(matmul::run_ladder(&ctx, 100)),
        "64, 256, 512, 1024",
    );
}

#[test]
fn gpu_every_graph_mode_matches_the_cpu() {
    let ctx = GpuContext::for_tests();
    let report = block_on(graph_modes::run_graph_modes(&ctx, 64)).unwrap();
    let names: Vec<_> = report.modes.iter().map(|m| m.mode).collect();
    assert_eq!(names, Mode::ALL.map(Mode::name));
    for m in &report.modes {
        assert!(m.check.passed(), "{}: {:?}", m.mode, m.check);
        assert_eq!(m.check.checked, 64 * 64);
    }
    assert!(report.dispatches_fused > 0 && report.dispatches_fused < graph_modes::DEPTH);
}

#[test]
fn gpu_the_graph_demo_refuses_a_size_it_does_not_offer() {
    let ctx = GpuContext::for_tests();
    assert_not_offered(block_on(graph_modes::run_graph_modes(&ctx, 32)), "64, 256");
}

#[test]
fn gpu_both_histogram_kernels_match_the_cpu_and_the_parallelism_crate() {
    let ctx = GpuContext::for_tests();
    for pattern in [Pattern::Random, Pattern::Skewed, Pattern::Constant] {
        let report = block_on(histogram::run_histograms(&ctx, 1, pattern)).unwrap();
        assert_eq!(report.bytes, 1 << 20);
        for k in &report.kernels {
            assert!(
                k.check.passed(),
                "{:?} on {pattern:?}: {:?}",
                k.kernel,
                k.check
            );
        }
    }
    // An odd length exercises the padded last word; the crate's own host code agrees.
    let data = histogram::input(10_007, Pattern::Random);
    let want = reference::cpu_histogram(&data);
    let crate_result = parallelism::gpu_histogram::gpu_histogram(
        &ctx,
        &data,
        parallelism::gpu_histogram::GpuHistogramKind::Privatised,
    )
    .unwrap();
    assert_eq!(crate_result, want);
    for kernel in Kernel::ALL {
        let r = block_on(histogram::run_kernel(&ctx, &data, &want, kernel)).unwrap();
        assert!(r.check.passed(), "{kernel:?}: {:?}", r.check);
    }
}

#[test]
fn gpu_the_histogram_refuses_sizes_patterns_and_empty_input_it_does_not_take() {
    let ctx = GpuContext::for_tests();
    assert_not_offered(
        block_on(histogram::run_histograms(&ctx, 3, Pattern::Random)),
        "1, 16, 64",
    );
    assert_not_offered(Pattern::parse("zebra"), "random, skewed, constant");
    let empty = block_on(histogram::run_kernel(
        &ctx,
        &[],
        &[0; 256],
        Kernel::Privatised,
    ));
    assert!(
        matches!(empty, Err(DemoError::OutOfRange { value: 0, .. })),
        "{empty:?}"
    );
}

#[test]
fn gpu_every_number_format_matches_its_exact_product_within_its_bound() {
    let ctx = context_with_f16();
    for kind in GemmKind::ALL {
        // Odd and small: debug-build tests on a 2-core machine (the page offers 512 and 1024).
        let r = block_on(formats::run_format(&ctx, kind, 68)).unwrap();
        match &r.measured {
            Some((check, _)) => assert!(check.passed(), "{}: {check:?}", r.format),
            None => {
                assert_eq!(kind, GemmKind::F16);
                assert!(!ctx.device.features().contains(kind.feature()));
            }
        }
    }
}

#[test]
fn gpu_without_shader_f16_the_formats_demo_says_so_and_runs_the_others() {
    // `for_tests` asks for no optional feature, so this device has no f16 even where the
    // adapter does.
    let ctx = GpuContext::for_tests();
    assert!(!ctx.device.features().contains(wgpu::Features::SHADER_F16));
    let r = block_on(formats::run_format(&ctx, GemmKind::F16, 68)).unwrap();
    assert!(r.measured.is_none());
    assert!(r.why_not.unwrap().contains("shader-f16"));
    let r = block_on(formats::run_format(&ctx, GemmKind::Int8, 68)).unwrap();
    assert!(r.measured.unwrap().0.passed());
}

#[test]
fn gpu_the_format_bounds_are_tight_enough_to_catch_an_error() {
    for kind in [GemmKind::F32, GemmKind::F16, GemmKind::Int8] {
        let inputs = GemmInputs::random(kind, 16, 16, 64, 5);
        let (want, bound) = formats::exact_and_bound(kind, &inputs, 16, 64);
        let mut got: Vec<f32> = want.iter().map(|&x| x as f32).collect();
        assert!(
            reference::check_within(&got, &want, &bound).passed(),
            "{kind:?}"
        );
        // An error the size of one average product term (|a·b| is 1/4 on average for values
        // in [−1, 1]; int8 sums are integers and exact) must show in every format.
        got[5] += 0.25;
        let check = reference::check_within(&got, &want, &bound);
        assert_eq!(
            check.first_mismatch,
            Some(5),
            "{kind:?}: bound {}",
            bound[5]
        );
    }
}

#[test]
fn gpu_the_formats_demo_refuses_a_size_it_does_not_offer() {
    let ctx = GpuContext::for_tests();
    assert_not_offered(block_on(formats::run_formats(&ctx, 256)), "512, 1024");
}
