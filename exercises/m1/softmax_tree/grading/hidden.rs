//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use computational_graphs::compiler::{Options, compile};
use computational_graphs::graph::{GraphBuilder, runner_cpu, runner_gpu, validate};
use computational_graphs::kernel_source::{uses_of, without_comments, workgroup_arrays};
use computational_graphs::ops::cpu;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_softmax_tree::{
    MAX_GROUPS_PER_DIMENSION, SoftmaxSinglePass, SoftmaxTree, TREE_WGSL, softmax_tree,
    workgroup_grid,
};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, scale: f32, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, scale, &mut SplitMix64::new(seed ^ 0x50f7_3a11))
}

fn assert_close(got: &Tensor2D, want: &Tensor2D, what: &str) {
    // For the grader: the shape and up to 1024 evenly spaced values (the output stays small).
    let step = got.data().len().div_ceil(1024).max(1);
    let sample: Vec<f32> = got.data().iter().step_by(step).copied().collect();
    grade_record!("tensor", (got.shape(), sample), 2e-4);
    assert_eq!(got.shape(), want.shape(), "{what}: shapes differ");
    for (i, (g, e)) in got.data().iter().zip(want.data()).enumerate() {
        assert!(g.is_finite(), "{what}: y[{i}] = {g}");
        assert!(
            (g - e).abs() <= 1e-5 + 1e-4 * e.abs(),
            "{what}: y[{i}] = {g}, expected {e}"
        );
    }
}

/// Immediate mode against the course's CPU softmax.
fn check(ctx: &GpuContext, rows: usize, cols: usize, scale: f32) {
    let x = random(rows, cols, scale, (rows * 31 + cols) as u64);
    let got = softmax_tree(ctx, &x).unwrap();
    assert_close(&got, &cpu::softmax(&x), &format!("{rows}×{cols}"));
}

#[test]
fn softmax_tree_hidden_uses_workgroup_memory() {
    let code = without_comments(TREE_WGSL);
    let arrays = workgroup_arrays(&code);
    assert!(!arrays.is_empty(), "reduce in a var<workgroup> array");
    assert!(
        arrays.iter().any(|name| uses_of(&code, name) >= 3),
        "the workgroup array {arrays:?} is declared but not written and read"
    );
    assert!(
        code.matches("workgroupBarrier").count() >= 2,
        "a barrier per tree level"
    );
    grade_ok!("softmax_tree_hidden_uses_workgroup_memory");
}

#[test]
fn softmax_tree_hidden_single_column() {
    let ctx = GpuContext::for_tests();
    let x = Tensor2D::new(3, 1, vec![3.0, -7.0, 0.5]).unwrap();
    let got = softmax_tree(&ctx, &x).unwrap();
    assert_eq!(got.data(), &[1.0, 1.0, 1.0]);
    grade_ok!("softmax_tree_hidden_single_column");
}

#[test]
fn softmax_tree_hidden_rows_longer_than_the_workgroup() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 3, 1000, 3.0);
    grade_ok!("softmax_tree_hidden_rows_longer_than_the_workgroup");
}

#[test]
fn softmax_tree_hidden_odd_sizes() {
    let ctx = GpuContext::for_tests();
    for (rows, cols) in [(5, 63), (2, 65), (7, 129), (1, 7), (9, 2)] {
        check(&ctx, rows, cols, 2.0);
    }
    grade_ok!("softmax_tree_hidden_odd_sizes");
}

#[test]
fn softmax_tree_hidden_large_values_are_stable() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 4, 100, 1000.0);
    grade_ok!("softmax_tree_hidden_large_values_are_stable");
}

#[test]
fn softmax_tree_hidden_grid_fits_the_limits() {
    let max = MAX_GROUPS_PER_DIMENSION;
    for rows in [1, 7, max - 1, max, max + 1, 3 * max + 5, 1 << 22, max * max] {
        let (x, y) = workgroup_grid(rows);
        assert!(
            (1..=max).contains(&x) && (1..=max).contains(&y),
            "{rows} rows: grid {x}×{y}, each side must be 1 to {max}"
        );
        let groups = u64::from(x) * u64::from(y);
        assert!(groups >= u64::from(rows), "{rows} rows: {x}×{y} is too few");
        assert!(
            groups < u64::from(rows) + u64::from(x),
            "{rows} rows: {x}×{y} has a whole line of idle workgroups"
        );
    }
    grade_ok!("softmax_tree_hidden_grid_fits_the_limits");
}

#[test]
fn softmax_tree_hidden_more_rows_than_one_dispatch_dimension() {
    let ctx = GpuContext::for_tests();
    let rows = 65_535 + 7;
    let data = (0..rows * 2).map(|i| (i % 5) as f32).collect();
    let x = Tensor2D::new(rows, 2, data).unwrap();
    // As a node of a graph on the GPU runner (the built-in Softmax stops at 65 535 rows).
    let mut g = GraphBuilder::new();
    let input = g.input("x", rows, 2);
    let xd = g.to_device(input);
    let y = g.custom(SoftmaxTree, &[xd]);
    g.to_host(y);
    let graph = validate(&g.finish()).unwrap();
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let got = program.run(&ctx, std::slice::from_ref(&x)).unwrap();
    let worst = got[0].max_abs_diff(&cpu::softmax(&x));
    assert!(worst <= 1e-5, "largest error {worst}");
    grade_ok!("softmax_tree_hidden_more_rows_than_one_dispatch_dimension");
}

#[test]
fn softmax_tree_hidden_in_graph_runners() {
    let ctx = GpuContext::for_tests();
    for (rows, cols) in [(1, 1), (3, 64), (6, 200), (33, 7)] {
        // x → SoftmaxTree, SoftmaxSinglePass and the built-in Softmax, each sent to the host.
        let mut g = GraphBuilder::new();
        let x = g.input("x", rows, cols);
        let xd = g.to_device(x);
        let tree = g.custom(SoftmaxTree, &[xd]);
        g.to_host(tree);
        let single = g.custom(SoftmaxSinglePass, &[xd]);
        g.to_host(single);
        let builtin = g.softmax(xd);
        g.to_host(builtin);
        let graph = validate(&g.finish()).unwrap();
        let input = [random(rows, cols, 5.0, (rows + cols) as u64)];
        let want = &runner_cpu::run(&graph, &input).unwrap()[2];
        let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
        let got = program.run(&ctx, &input).unwrap();
        assert_close(&got[0], want, &format!("runner_gpu, {rows}×{cols}"));
        assert_close(
            &got[0],
            &got[1],
            &format!("tree vs single pass, {rows}×{cols}"),
        );
        let compiled = compile(&ctx, &graph, Options::default()).unwrap();
        let got = compiled.program.run(&ctx, &input).unwrap();
        assert_close(&got[0], want, &format!("compiler, {rows}×{cols}"));
    }
    grade_ok!("softmax_tree_hidden_in_graph_runners");
}
