//! Every operator kernel against the CPU reference, on square and non-square shapes.

mod common;

use common::{SHAPES, assert_close, random};
use computational_graphs::immediate;
use computational_graphs::ops::gpu::{Kernel, Pipelines};
use computational_graphs::ops::{cpu, linear_output_shape};
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};
use gpu_context::GpuContext;

// ANCHOR: test_kernel
/// Runs `kernel` on the GPU for every test shape and compares it with the CPU version.
fn check_kernel(kernel: Kernel, cpu: impl Fn(&Tensor2D, &Tensor2D, &Tensor2D) -> Tensor2D) {
    let ctx = GpuContext::for_tests();
    for (seed, &(m, k, n)) in SHAPES.iter().enumerate() {
        let x = random(m, k, seed as u64);
        // Unary kernels keep the input's shape; Linear kernels map k columns to n.
        let (w, b) = (
            random(k, n, 100 + seed as u64),
            random(1, n, 200 + seed as u64),
        );
        let params = kernel.has_weights().then_some((&w, &b));
        let got = immediate::run_op(&ctx, Pipelines::Cached, kernel, &x, params).unwrap();
        let want = cpu(&x, &w, &b);
        assert_close(&got, &want, &format!("{} at {m}×{k}×{n}", kernel.name()));
    }
}
// ANCHOR_END: test_kernel

#[test]
fn linear_matches_cpu() {
    check_kernel(Kernel::Linear, |x, w, b| cpu::linear(x, w, b).unwrap());
}

#[test]
fn relu_matches_cpu() {
    check_kernel(Kernel::Relu, |x, _, _| cpu::relu(x));
}

#[test]
fn softmax_matches_cpu() {
    check_kernel(Kernel::Softmax, |x, _, _| cpu::softmax(x));
}

#[test]
fn linear_relu_matches_cpu() {
    check_kernel(Kernel::LinearRelu, |x, w, b| {
        cpu::linear_relu(x, w, b).unwrap()
    });
}

#[test]
fn linear_relu_softmax_matches_cpu() {
    check_kernel(Kernel::LinearReluSoftmax, |x, w, b| {
        cpu::linear_relu_softmax(x, w, b).unwrap()
    });
}

#[test]
fn cached_pipelines_compile_once_and_uncached_every_time() {
    let ctx = GpuContext::for_tests();
    let x = random(5, 6, 1);
    for _ in 0..3 {
        immediate::relu(&ctx, Pipelines::Cached, &x).unwrap();
        immediate::relu(&ctx, Pipelines::CompileEveryTime, &x).unwrap();
    }
    // compile_pipeline (no cache) never touches the cache; the cached path compiled once.
    assert_eq!(ctx.pipelines.compilations(), 1);
    assert_eq!(ctx.pipelines.len(), 1);
}

#[test]
fn softmax_is_stable_and_rows_sum_to_one() {
    // exp(1000) overflows f32; subtracting the row maximum first keeps it finite.
    let x = Tensor2D::from_rows(&[[1000.0, 1000.0, 999.0], [-5.0, 0.0, 5.0]]);
    let y = cpu::softmax(&x);
    for r in 0..2 {
        let sum: f32 = (0..3).map(|c| y.get(r, c)).sum();
        assert!((sum - 1.0).abs() < 1e-6, "row {r} sums to {sum}");
    }
    assert!((y.get(0, 0) - y.get(0, 1)).abs() < 1e-7 && y.get(0, 2) < y.get(0, 0));
    let ctx = GpuContext::for_tests();
    let gpu = immediate::softmax(&ctx, Pipelines::Cached, &x).unwrap();
    assert_close(&gpu, &y, "GPU softmax with large values");
}

#[test]
fn mismatched_shapes_are_errors_before_any_gpu_work() {
    let (x, w, b) = (random(3, 4, 1), random(5, 2, 2), random(1, 2, 3));
    let err = cpu::linear(&x, &w, &b).unwrap_err();
    assert!(
        err.to_string()
            .contains("input's columns must equal the weights' rows"),
        "{err}"
    );
    let ctx = GpuContext::for_tests();
    let err = immediate::linear(&ctx, Pipelines::Cached, &x, &w, &b).unwrap_err();
    assert!(matches!(err, Error::Shape { op: "linear", .. }), "{err}");
    assert_eq!(
        ctx.pipelines.compilations(),
        0,
        "nothing was compiled for a bad shape"
    );
    let bad_bias = random(2, 2, 4);
    let err = cpu::linear(&x, &random(4, 2, 5), &bad_bias).unwrap_err();
    assert!(err.to_string().contains("must be 1×2"), "{err}");
}

#[test]
fn the_linear_shape_rule_names_the_dimensions_that_differ() {
    assert_eq!(linear_output_shape((3, 4), (4, 2), (1, 2)), Ok((3, 2)));
    let inner = linear_output_shape((3, 4), (5, 2), (1, 2)).unwrap_err();
    assert_eq!(
        inner,
        ShapeError::InnerDimension {
            input: (3, 4),
            weights: (5, 2)
        }
    );
    assert!(
        inner.to_string().contains("give the input 5 columns"),
        "{inner}"
    );
    let bias = linear_output_shape((3, 4), (4, 2), (2, 2)).unwrap_err();
    assert!(
        matches!(
            bias,
            ShapeError::Mismatch {
                expected: (1, 2),
                ..
            }
        ),
        "{bias}"
    );
    let count = ShapeError::InputCount {
        expected: 2,
        inputs: "x then w",
        got: 3,
    };
    assert_eq!(
        count.to_string(),
        "takes 2 inputs, x then w, but got 3: pass exactly those, in that order"
    );
}
