//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use computational_graphs::Error;
use computational_graphs::compiler::{Options, compile, fuse};
use computational_graphs::graph::{
    GraphBuilder, OpList, Rule, VerifiedGraph, runner_cpu, runner_gpu, validate,
};
use computational_graphs::immediate;
use computational_graphs::ops::{cpu, gpu::Pipelines};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_max_pool::{MaxPool, max_pool_cpu, max_pool_gpu, pooled_shape};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

/// Every value below zero, down to `-floor` (close to the lowest f32 when `floor` is huge).
fn all_negative(rows: usize, cols: usize, seed: u64, floor: f32) -> Tensor2D {
    let x = random(rows, cols, seed);
    let data = x
        .data()
        .iter()
        .map(|v| -(0.25 + 0.75 * v.abs()) * floor)
        .collect();
    Tensor2D::new(rows, cols, data).unwrap()
}

/// The reference, written independently of the exercise: every input element raises the
/// maximum of the window it falls in; edge rows and columns beyond whole windows are dropped.
fn reference(x: &Tensor2D, k: usize) -> Tensor2D {
    let (oh, ow) = (x.rows() / k, x.cols() / k);
    let mut data = vec![f32::NEG_INFINITY; oh * ow];
    for r in 0..oh * k {
        for c in 0..ow * k {
            let o = (r / k) * ow + c / k;
            data[o] = data[o].max(x.get(r, c));
        }
    }
    Tensor2D::new(oh, ow, data).unwrap()
}

/// Same shape, and every element within a tolerance (a NaN never passes).
fn assert_close(got: &Tensor2D, want: &Tensor2D, what: &str) {
    // For the grader: the shape and up to 1024 evenly spaced values (the output stays small).
    let step = got.data().len().div_ceil(1024).max(1);
    let sample: Vec<f32> = got.data().iter().step_by(step).copied().collect();
    grade_record!("tensor", (got.shape(), sample), 2e-4);
    assert_eq!(got.shape(), want.shape(), "{what}: shapes differ");
    let scale = want.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    for (i, (a, b)) in got.data().iter().zip(want.data()).enumerate() {
        assert!(
            (a - b).abs() <= 1e-4 * scale,
            "{what}: element {i} is {a}, want {b}"
        );
    }
}

fn is_shape_error(result: Result<Tensor2D, Error>) -> bool {
    matches!(result, Err(Error::Shape { op: "MaxPool", ref detail }) if !detail.is_empty())
}

#[test]
fn max_pool_hidden_shapes_and_errors() {
    for (h, w, k, want) in [
        (7, 5, 2, (3, 2)),
        (3, 3, 3, (1, 1)),
        (9, 4, 1, (9, 4)),
        (1, 1, 1, (1, 1)),
        (8, 64, 8, (1, 8)),
        (65, 9, 4, (16, 2)),
    ] {
        assert_eq!(pooled_shape(h, w, k), Ok(want), "{h}×{w}, k={k}");
    }
    for (h, w, k) in [
        (4, 4, 0),
        (2, 8, 3),
        (8, 2, 3),
        (0, 5, 1),
        (5, 0, 2),
        (1, 1, 2),
    ] {
        match pooled_shape(h, w, k) {
            Err(err) => assert!(
                !err.to_string().trim().is_empty(),
                "{h}×{w}, k={k}: empty message"
            ),
            Ok(shape) => panic!("{h}×{w}, k={k} gave {shape:?} instead of an error"),
        }
    }
    for (h, w) in [(0, 5), (5, 0)] {
        let got = pooled_shape(h, w, 1);
        grade_record!("empty_tensor", &got, 0.0);
        assert!(
            matches!(got, Err(computational_graphs::ShapeError::Empty { .. })),
            "{h}×{w}: an empty tensor is its own error, got {got:?}"
        );
    }
    assert!(is_shape_error(max_pool_cpu(&random(2, 2, 1), 3)));
    assert!(is_shape_error(max_pool_cpu(&random(3, 5, 1), 0)));
    grade_ok!("max_pool_hidden_shapes_and_errors");
}

#[test]
fn max_pool_hidden_cpu_known_values() {
    for (h, w, k, seed) in [
        (7, 5, 2, 2),
        (6, 6, 3, 3),
        (4, 9, 1, 4),
        (5, 5, 5, 5),
        (11, 3, 2, 6),
    ] {
        let x = random(h, w, seed);
        assert_eq!(
            max_pool_cpu(&x, k).unwrap(),
            reference(&x, k),
            "{h}×{w}, k={k}"
        );
    }
    grade_ok!("max_pool_hidden_cpu_known_values");
}

#[test]
fn max_pool_hidden_cpu_negative_windows() {
    let x = Tensor2D::from_rows(&[[-4.0, -3.0], [-2.5, -9.0]]);
    assert_eq!(max_pool_cpu(&x, 2).unwrap().data(), &[-2.5]);
    for floor in [1.0, 1e30, 3e38] {
        let x = all_negative(6, 9, 7, floor);
        assert_eq!(
            max_pool_cpu(&x, 3).unwrap(),
            reference(&x, 3),
            "values down to -{floor}"
        );
    }
    grade_ok!("max_pool_hidden_cpu_negative_windows");
}

#[test]
fn max_pool_hidden_gpu_matches_cpu_on_odd_sizes() {
    let ctx = GpuContext::for_tests();
    for (h, w, k) in [
        (1, 1, 1),
        (2, 2, 2),
        (33, 17, 3),
        (17, 33, 3),
        (9, 10, 2),
        (8, 46, 2),
        (70, 130, 1),
        (5, 40, 5),
        (41, 5, 5),
    ] {
        let x = random(h, w, (h * 131 + w) as u64);
        assert_eq!(
            max_pool_gpu(&ctx, &x, k).unwrap(),
            reference(&x, k),
            "{h}×{w}, k={k}"
        );
    }
    for floor in [1.0, 3e38] {
        let x = all_negative(9, 7, 8, floor);
        assert_eq!(
            max_pool_gpu(&ctx, &x, 2).unwrap(),
            reference(&x, 2),
            "down to -{floor}"
        );
    }
    assert!(is_shape_error(max_pool_gpu(&ctx, &random(3, 3, 9), 0)));
    assert!(is_shape_error(max_pool_gpu(&ctx, &random(3, 8, 9), 4)));
    grade_ok!("max_pool_hidden_gpu_matches_cpu_on_odd_sizes");
}

/// The weights of the graph below, the same on every call.
fn weights(n: usize, p: usize, k: usize) -> [Tensor2D; 4] {
    let tail_rows = p.checked_div(k).unwrap_or(0);
    [
        random(n, p, 11),
        random(1, p, 12),
        random(tail_rows, 3, 14),
        random(1, 3, 15),
    ]
}

/// x (m×n) → Linear (n→p) → ReLU → MaxPool k → back to the host. With `tail`, the pooled
/// result first feeds a Linear (p/k → 3), so the pooled shape must flow on through the graph.
fn graph(m: usize, n: usize, p: usize, k: usize, tail: bool) -> OpList {
    let [w, b, w2, b2] = weights(n, p, k);
    let mut g = GraphBuilder::new();
    let x = g.input("x", m, n);
    let (w, b) = (g.parameter("w", w), g.parameter("b", b));
    let xd = g.to_device(x);
    let h = g.linear(xd, w, b);
    let h = g.relu(h);
    let mut out = g.custom(MaxPool { k }, &[h]);
    if tail {
        let (w2, b2) = (g.parameter("w2", w2), g.parameter("b2", b2));
        out = g.linear(out, w2, b2);
    }
    g.to_host(out);
    g.finish()
}

/// What [`graph`] computes, with the crate's CPU operators and the reference pooling.
fn expected(x: &Tensor2D, p: usize, k: usize, tail: bool) -> Tensor2D {
    let [w, b, w2, b2] = weights(x.cols(), p, k);
    let pooled = reference(&cpu::relu(&cpu::linear(x, &w, &b).unwrap()), k);
    if tail {
        cpu::linear(&pooled, &w2, &b2).unwrap()
    } else {
        pooled
    }
}

fn run_everywhere(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    x: &Tensor2D,
    want: &Tensor2D,
    what: &str,
) {
    let inputs = std::slice::from_ref(x);
    assert_close(
        &runner_cpu::run(graph, inputs).unwrap()[0],
        want,
        &format!("{what}: runner_cpu"),
    );
    let got = immediate::run_graph(ctx, graph, inputs, Pipelines::Cached).unwrap();
    assert_close(&got[0], want, &format!("{what}: immediate"));
    for (g, how) in [(graph.clone(), "as built"), (fuse(graph), "fused")] {
        let program = runner_gpu::build(ctx, &g, Pipelines::Cached).unwrap();
        let got = program.run(ctx, inputs).unwrap();
        assert_close(&got[0], want, &format!("{what}: runner_gpu {how}"));
        let compiled = compile(ctx, &g, Options::default()).unwrap();
        let got = compiled.program.run(ctx, inputs).unwrap();
        assert_close(&got[0], want, &format!("{what}: compiler {how}"));
    }
}

#[test]
fn max_pool_hidden_graph_runs_in_every_runner() {
    let ctx = GpuContext::for_tests();
    for (m, n, p, k, tail) in [
        (6, 4, 10, 2, false),
        (13, 7, 19, 3, false),
        (1, 1, 1, 1, false),
        (18, 5, 9, 2, true),
    ] {
        let verified = validate(&graph(m, n, p, k, tail)).unwrap();
        let x = random(m, n, (m * n) as u64);
        let want = expected(&x, p, k, tail);
        run_everywhere(&ctx, &verified, &x, &want, &format!("{m}×{n}→{p}, k={k}"));
    }
    grade_ok!("max_pool_hidden_graph_runs_in_every_runner");
}

#[test]
fn max_pool_hidden_graph_rejects_a_window_too_large() {
    assert!(validate(&graph(4, 3, 10, 2, false)).is_ok());
    for k in [0, 5] {
        let Err(err) = validate(&graph(4, 3, 10, k, false)) else {
            panic!("a {k}×{k} window on a 4×10 tensor was accepted");
        };
        assert_eq!(err.rule, Rule::ShapeMismatch, "k={k}: {err}");
        assert_eq!(err.operator, "MaxPool", "k={k}: {err}");
        assert!(!err.detail.trim().is_empty(), "k={k}: no explanation");
    }
    grade_ok!("max_pool_hidden_graph_rejects_a_window_too_large");
}
