//! Public tests: `cargo nextest run -p ex_m1_softmax_tree` (they need a GPU adapter; lavapipe
//! is enough).

use computational_graphs::graph::{GraphBuilder, runner_cpu, runner_gpu, validate};
use computational_graphs::kernel_source::without_comments;
use computational_graphs::ops::cpu;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_softmax_tree::{SoftmaxTree, TREE_WGSL, softmax_single_pass, softmax_tree};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 4.0, &mut SplitMix64::new(seed))
}

fn assert_close(got: &Tensor2D, want: &Tensor2D, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shapes differ");
    for (i, (g, e)) in got.data().iter().zip(want.data()).enumerate() {
        assert!(
            (g - e).abs() <= 1e-5 + 1e-4 * e.abs(),
            "{what}: y[{i}] = {g}, expected {e}"
        );
    }
}

#[test]
fn softmax_tree_public_small_matrix() {
    let ctx = GpuContext::for_tests();
    let x = random(4, 10, 1);
    assert_close(&softmax_tree(&ctx, &x).unwrap(), &cpu::softmax(&x), "4×10");
}

#[test]
fn softmax_tree_public_matches_single_pass() {
    let ctx = GpuContext::for_tests();
    let x = random(2, 300, 2);
    let single = softmax_single_pass(&ctx, &x).unwrap();
    assert_close(&single, &cpu::softmax(&x), "single pass");
    assert_close(
        &softmax_tree(&ctx, &x).unwrap(),
        &single,
        "tree vs single pass",
    );
}

#[test]
fn softmax_tree_public_kernel_uses_workgroup_memory() {
    let code = without_comments(TREE_WGSL);
    assert!(
        code.contains("var<workgroup>"),
        "reduce in a var<workgroup> array"
    );
    assert!(
        code.contains("workgroupBarrier"),
        "synchronise between tree levels"
    );
}

/// Your operator as a node of a graph, next to the built-in Softmax on the same buffer.
#[test]
fn softmax_tree_public_as_a_graph_node() {
    let (rows, cols) = (5, 70);
    let mut g = GraphBuilder::new();
    let x = g.input("x", rows, cols);
    let xd = g.to_device(x);
    let tree = g.custom(SoftmaxTree, &[xd]);
    g.to_host(tree);
    // Softmax ends a network: the built-in one comes after the custom node.
    let builtin = g.softmax(xd);
    g.to_host(builtin);
    let graph = validate(&g.finish()).unwrap();
    let input = [random(rows, cols, 3)];
    let want = &runner_cpu::run(&graph, &input).unwrap()[1];
    let ctx = GpuContext::for_tests();
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let got = program.run(&ctx, &input).unwrap();
    assert_close(
        &got[0],
        want,
        "SoftmaxTree node on the GPU vs the built-in Softmax",
    );
}
