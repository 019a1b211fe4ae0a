//! Public tests: `cargo nextest run -p ex_m1_tiled_linear` (they need a GPU adapter; lavapipe
//! is enough).

use computational_graphs::graph::{GraphBuilder, runner_cpu, runner_gpu, validate};
use computational_graphs::kernel_source::without_comments;
use computational_graphs::ops::cpu;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_tiled_linear::{TILED_WGSL, TiledLinear, linear_tiled};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

/// Agreement to a tolerance relative to the reference's largest magnitude.
fn assert_close(got: &Tensor2D, want: &Tensor2D, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shapes differ");
    assert!(
        got.data().iter().all(|v| v.is_finite()),
        "{what}: not finite"
    );
    let scale = want.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let diff = got.max_abs_diff(want);
    assert!(diff <= 1e-4 * scale, "{what}: off by up to {diff}");
}

fn check(ctx: &GpuContext, m: usize, k: usize, n: usize) {
    let (x, w, b) = (random(m, k, 1), random(k, n, 2), random(1, n, 3));
    let got = linear_tiled(ctx, &x, &w, &b).unwrap();
    let want = cpu::linear(&x, &w, &b).unwrap();
    assert_close(&got, &want, &format!("{m}×{k}×{n}"));
}

#[test]
fn tiled_linear_public_one_tile() {
    check(&GpuContext::for_tests(), 16, 16, 16);
}

#[test]
fn tiled_linear_public_ragged() {
    check(&GpuContext::for_tests(), 20, 7, 13);
}

#[test]
fn tiled_linear_public_kernel_uses_shared_memory() {
    let code = without_comments(TILED_WGSL);
    assert!(
        code.contains("var<workgroup>"),
        "stage the tiles in var<workgroup> arrays"
    );
    assert!(
        code.contains("workgroupBarrier"),
        "synchronise the workgroup around each tile"
    );
}

/// Your operator as a node of a graph, next to the built-in Linear on the same buffers.
#[test]
fn tiled_linear_public_as_a_graph_node() {
    let (m, k, n) = (19, 21, 18);
    let mut g = GraphBuilder::new();
    let x = g.input("x", m, k);
    let w = g.parameter("w", random(k, n, 4));
    let b = g.parameter("b", random(1, n, 5));
    let xd = g.to_device(x);
    let tiled = g.custom(TiledLinear, &[xd, w, b]);
    g.to_host(tiled);
    let builtin = g.linear(xd, w, b);
    g.to_host(builtin);
    let graph = validate(&g.finish()).unwrap();
    let input = [random(m, k, 6)];
    let want = &runner_cpu::run(&graph, &input).unwrap()[1];
    let ctx = GpuContext::for_tests();
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let got = program.run(&ctx, &input).unwrap();
    assert_close(
        &got[0],
        want,
        "TiledLinear node on the GPU vs the built-in Linear",
    );
}
