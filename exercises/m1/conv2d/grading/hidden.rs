//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use computational_graphs::compiler::{Options, compile, fuse};
use computational_graphs::graph::{GraphBuilder, OpList, Rule, runner_cpu, runner_gpu, validate};
use computational_graphs::immediate;
use computational_graphs::ops::{cpu, gpu::Pipelines};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};
use ex_m1_conv2d::{Conv2d, conv2d_cpu, conv2d_gpu, conv2d_shape};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

/// The reference, written independently of the exercise: every output element walks its
/// window through flat indices.
fn reference(image: &Tensor2D, kernel: &Tensor2D, stride: usize) -> Tensor2D {
    let ((h, w), (kh, kw)) = (image.shape(), kernel.shape());
    let (oh, ow) = ((h - kh) / stride + 1, (w - kw) / stride + 1);
    let data = (0..oh * ow)
        .map(|o| {
            let (top, left) = ((o / ow) * stride, (o % ow) * stride);
            (0..kh * kw)
                .map(|k| kernel.data()[k] * image.data()[(top + k / kw) * w + left + k % kw])
                .sum()
        })
        .collect();
    Tensor2D::new(oh, ow, data).unwrap()
}

fn assert_close(got: &Tensor2D, want: &Tensor2D, what: &str) {
    // For the grader: the shape and up to 1024 evenly spaced values (the output stays small).
    let step = got.data().len().div_ceil(1024).max(1);
    let sample: Vec<f32> = got.data().iter().step_by(step).copied().collect();
    grade_record!("tensor", (got.shape(), sample), 2e-4);
    assert_eq!(got.shape(), want.shape(), "{what}: shapes differ");
    let scale = want.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let diff = got.max_abs_diff(want);
    assert!(diff <= 1e-4 * scale, "{what}: max difference {diff}");
}

fn error_text(result: Result<(usize, usize), ShapeError>) -> String {
    result.expect_err("an error").to_string().to_lowercase()
}

#[test]
fn conv2d_hidden_shapes_and_errors() {
    assert_eq!(conv2d_shape((4, 4), (2, 2), 1).unwrap(), (3, 3));
    assert_eq!(conv2d_shape((7, 8), (3, 2), 2).unwrap(), (3, 4));
    assert_eq!(conv2d_shape((37, 53), (3, 5), 3).unwrap(), (12, 17));
    assert_eq!(conv2d_shape((6, 4), (6, 4), 5).unwrap(), (1, 1));
    assert_eq!(conv2d_shape((1, 9), (1, 1), 4).unwrap(), (1, 3));
    assert!(error_text(conv2d_shape((4, 4), (2, 2), 0)).contains("stride"));
    assert!(error_text(conv2d_shape((4, 4), (0, 2), 1)).contains("kernel"));
    assert!(error_text(conv2d_shape((4, 4), (2, 0), 1)).contains("kernel"));
    for image in [(0, 4), (4, 0)] {
        let got = conv2d_shape(image, (1, 1), 1);
        grade_record!("empty_image", &got, 0.0);
        assert!(
            matches!(got, Err(ShapeError::Empty { what: "the image", .. })),
            "{image:?}: an empty image is its own error, got {got:?}"
        );
    }
    assert!(error_text(conv2d_shape((3, 9), (4, 2), 1)).contains("kernel"));
    assert!(error_text(conv2d_shape((9, 3), (2, 4), 1)).contains("kernel"));
    for stride in [0, 1] {
        let err = conv2d_cpu(&random(3, 3, 1), &random(2, 4, 2), stride).unwrap_err();
        assert!(matches!(err, Error::Shape { op: "Conv2d", .. }), "{err}");
    }
    grade_ok!("conv2d_hidden_shapes_and_errors");
}

#[test]
fn conv2d_hidden_cpu_known_values() {
    let image = Tensor2D::from_rows(&[
        [1.0, -2.0, 3.0, -4.0, 5.0],
        [-6.0, 7.0, -8.0, 9.0, -10.0],
        [11.0, -12.0, 13.0, -14.0, 15.0],
    ]);
    let kernel = Tensor2D::from_rows(&[[1.0, -1.0], [-1.0, 1.0]]);
    // Stride 2: windows at columns 0 and 2 of the first two rows.
    let got = conv2d_cpu(&image, &kernel, 2).unwrap();
    assert_eq!(got, Tensor2D::from_rows(&[[16.0, 24.0]]));
    // An asymmetric kernel tells a cross-correlation from a flipped convolution.
    let kernel = Tensor2D::from_rows(&[[0.0, -1.0, 2.0]]);
    let got = conv2d_cpu(&image, &kernel, 1).unwrap();
    let want = Tensor2D::from_rows(&[
        [8.0, -11.0, 14.0],
        [-23.0, 26.0, -29.0],
        [38.0, -41.0, 44.0],
    ]);
    assert_eq!(got, want);
    for (h, w, kh, kw, stride) in [(7, 9, 3, 3, 1), (8, 11, 2, 4, 2), (10, 10, 1, 3, 3)] {
        let (image, kernel) = (random(h, w, 3), random(kh, kw, 4));
        let what = format!("{h}×{w} * {kh}×{kw}, stride {stride}");
        let got = conv2d_cpu(&image, &kernel, stride).unwrap();
        assert_close(&got, &reference(&image, &kernel, stride), &what);
    }
    grade_ok!("conv2d_hidden_cpu_known_values");
}

#[test]
fn conv2d_hidden_gpu_matches_cpu_on_odd_sizes() {
    let ctx = GpuContext::for_tests();
    let cases = [
        (1, 1, 1, 1, 1),
        (5, 7, 1, 1, 1),
        (5, 7, 1, 1, 2),
        (6, 4, 6, 4, 1),
        (10, 10, 3, 3, 1),
        (11, 11, 3, 3, 1),
        (3, 70, 3, 3, 1),
        (70, 3, 3, 3, 2),
        (37, 53, 3, 5, 1),
        (37, 53, 3, 5, 2),
        (37, 53, 5, 3, 3),
    ];
    for (h, w, kh, kw, stride) in cases {
        let seed = (h * 100 + w) as u64;
        let (image, kernel) = (random(h, w, seed), random(kh, kw, seed + 1));
        let what = format!("{h}×{w} * {kh}×{kw}, stride {stride}");
        let got = conv2d_gpu(&ctx, &image, &kernel, stride).unwrap();
        assert_close(&got, &reference(&image, &kernel, stride), &what);
    }
    let err = conv2d_gpu(&ctx, &random(2, 2, 1), &random(3, 3, 2), 1).unwrap_err();
    assert!(matches!(err, Error::Shape { op: "Conv2d", .. }), "{err}");
    grade_ok!("conv2d_hidden_gpu_matches_cpu_on_odd_sizes");
}

/// x (m×k) → Linear → ReLU → Conv2d with a parameter kernel → back to the host.
fn linear_relu_conv(m: usize, k: usize, n: usize, kernel: &Tensor2D, stride: usize) -> OpList {
    let mut g = GraphBuilder::new();
    let x = g.input("x", m, k);
    let w = g.parameter("w", random(k, n, 11));
    let b = g.parameter("b", random(1, n, 12));
    let kernel = g.parameter("kernel", kernel.clone());
    let xd = g.to_device(x);
    let h = g.linear(xd, w, b);
    let h = g.relu(h);
    let y = g.custom(Conv2d { stride }, &[h, kernel]);
    g.to_host(y);
    g.finish()
}

#[test]
fn conv2d_hidden_graph_runs_in_every_runner() {
    let ctx = GpuContext::for_tests();
    for (m, k, n, kh, kw, stride) in [(13, 5, 10, 3, 2, 2), (20, 7, 17, 4, 4, 1)] {
        let kernel = random(kh, kw, 13);
        let graph = validate(&linear_relu_conv(m, k, n, &kernel, stride)).unwrap();
        let x = random(m, k, 14);
        let inputs = std::slice::from_ref(&x);
        let h = cpu::relu(&cpu::linear(&x, &random(k, n, 11), &random(1, n, 12)).unwrap());
        let want = reference(&h, &kernel, stride);
        let what = |runner: &str| format!("{m}×{n} * {kh}×{kw}, stride {stride}: {runner}");
        let got = runner_cpu::run(&graph, inputs).unwrap();
        assert_close(&got[0], &want, &what("cpu"));
        let got = immediate::run_graph(&ctx, &graph, inputs, Pipelines::Cached).unwrap();
        assert_close(&got[0], &want, &what("immediate"));
        for (g, fused) in [(graph.clone(), ""), (fuse(&graph), " (fused)")] {
            let program = runner_gpu::build(&ctx, &g, Pipelines::Cached).unwrap();
            let got = program.run(&ctx, inputs).unwrap();
            assert_close(&got[0], &want, &what(&format!("gpu runner{fused}")));
            let compiled = compile(&ctx, &g, Options::default()).unwrap();
            let got = compiled.program.run(&ctx, inputs).unwrap();
            assert_close(&got[0], &want, &what(&format!("compiler{fused}")));
        }
    }
    grade_ok!("conv2d_hidden_graph_runs_in_every_runner");
}

#[test]
fn conv2d_hidden_graph_rejects_a_wrong_kernel() {
    for (kernel, stride, says) in [((5, 5), 1, "kernel"), ((2, 2), 0, "stride")] {
        let mut g = GraphBuilder::new();
        let x = g.input("image", 4, 6);
        let k = g.parameter("kernel", Tensor2D::zeros(kernel.0, kernel.1));
        let xd = g.to_device(x);
        let y = g.custom(Conv2d { stride }, &[xd, k]);
        g.to_host(y);
        let err = validate(&g.finish()).expect_err("an invalid convolution was accepted");
        assert_eq!(err.rule, Rule::ShapeMismatch, "{err}");
        assert_eq!(err.operator, "Conv2d", "{err}");
        assert!(err.detail.to_lowercase().contains(says), "{err}");
    }
    grade_ok!("conv2d_hidden_graph_rejects_a_wrong_kernel");
}
