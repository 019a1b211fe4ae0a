//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's kernel returned; the grader compares it with the
//! reference solution's, outside this process. (`uses_workgroup_memory` reads the kernel's
//! source and records nothing: it is decided in the process.)

use computational_graphs::compiler::{Options, compile, fuse};
use computational_graphs::graph::{GraphBuilder, VerifiedGraph, runner_cpu, runner_gpu, validate};
use computational_graphs::kernel_source::{uses_of, without_comments, workgroup_arrays};
use computational_graphs::ops::cpu;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_tiled_linear::{NaiveLinear, TILED_WGSL, TiledLinear, linear_tiled, workgroups};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed ^ 0x5eed_7111))
}

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

/// Immediate mode against the course's CPU Linear.
fn check(ctx: &GpuContext, m: usize, k: usize, n: usize) {
    let seed = (m * 1000 + k * 10 + n) as u64;
    let (x, w, b) = (
        random(m, k, seed),
        random(k, n, seed + 1),
        random(1, n, seed + 2),
    );
    let got = linear_tiled(ctx, &x, &w, &b).unwrap();
    // Two kernels each within 1e-4 of the CPU's result are within 2e-4 of each other.
    grade_record!("y", (got.shape(), got.data()), 2e-4);
    let want = cpu::linear(&x, &w, &b).unwrap();
    assert_close(&got, &want, &format!("{m}×{k}×{n}"));
}

#[test]
fn tiled_linear_hidden_uses_workgroup_memory() {
    let code = without_comments(TILED_WGSL);
    let arrays = workgroup_arrays(&code);
    assert!(
        arrays.len() >= 2,
        "two tiles in workgroup memory: {arrays:?}"
    );
    for name in &arrays {
        // The declaration, at least one store and at least one load.
        assert!(
            uses_of(&code, name) >= 3,
            "the workgroup array {name} is declared but not written and read"
        );
    }
    assert!(
        code.matches("workgroupBarrier").count() >= 2,
        "a barrier after loading a tile and one before overwriting it"
    );
    grade_ok!("tiled_linear_hidden_uses_workgroup_memory");
}

#[test]
fn tiled_linear_hidden_one_by_one() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 1, 1, 1);
    check(&ctx, 1, 3, 1);
    grade_ok!("tiled_linear_hidden_one_by_one");
}

#[test]
fn tiled_linear_hidden_exact_tiles() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 32, 16, 48);
    grade_ok!("tiled_linear_hidden_exact_tiles");
}

#[test]
fn tiled_linear_hidden_ragged_shapes() {
    let ctx = GpuContext::for_tests();
    for (m, k, n) in [(17, 33, 9), (3, 5, 70), (65, 2, 1), (33, 17, 31)] {
        check(&ctx, m, k, n);
    }
    grade_ok!("tiled_linear_hidden_ragged_shapes");
}

#[test]
fn tiled_linear_hidden_long_k() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 5, 300, 7);
    check(&ctx, 18, 257, 20);
    grade_ok!("tiled_linear_hidden_long_k");
}

#[test]
fn tiled_linear_hidden_dispatch_grid() {
    for ((m, n), want) in [
        ((1, 1), (1, 1)),
        ((16, 16), (1, 1)),
        ((17, 33), (3, 2)),
        ((1000, 5), (1, 63)),
        ((4096, 1_000_000), (62_500, 256)),
    ] {
        grade_record!("workgroups", workgroups(m, n), 0.0);
        assert_eq!(
            workgroups(m, n),
            want,
            "{m}×{n}: one workgroup per 16×16 tile, x along the columns"
        );
    }
    grade_ok!("tiled_linear_hidden_dispatch_grid");
}

/// x → [Linear → ReLU] → h; h → TiledLinear and h → NaiveLinear and h → built-in Linear.
fn two_layers(m: usize, k: usize, h: usize, n: usize) -> VerifiedGraph {
    let mut g = GraphBuilder::new();
    let x = g.input("x", m, k);
    let w1 = g.parameter("w1", random(k, h, 21));
    let b1 = g.parameter("b1", random(1, h, 22));
    let w2 = g.parameter("w2", random(h, n, 23));
    let b2 = g.parameter("b2", random(1, n, 24));
    let xd = g.to_device(x);
    let hidden = g.linear(xd, w1, b1);
    let hidden = g.relu(hidden);
    for out in [
        g.custom(TiledLinear, &[hidden, w2, b2]),
        g.custom(NaiveLinear, &[hidden, w2, b2]),
        g.linear(hidden, w2, b2),
    ] {
        g.to_host(out);
    }
    validate(&g.finish()).unwrap()
}

#[test]
fn tiled_linear_hidden_matches_naive_kernel() {
    let ctx = GpuContext::for_tests();
    let graph = two_layers(40, 24, 20, 36);
    let input = [random(40, 24, 25)];
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let got = program.run(&ctx, &input).unwrap();
    grade_record!("tiled", got[0].data(), 2e-4);
    assert_close(&got[0], &got[1], "tiled vs naive");
    grade_ok!("tiled_linear_hidden_matches_naive_kernel");
}

#[test]
fn tiled_linear_hidden_in_graph_runners() {
    let ctx = GpuContext::for_tests();
    for (m, k, h, n) in [(1, 1, 1, 1), (17, 33, 19, 20), (70, 9, 40, 130)] {
        let graph = two_layers(m, k, h, n);
        let input = [random(m, k, 26)];
        let want = &runner_cpu::run(&graph, &input).unwrap()[2];
        for g in [graph.clone(), fuse(&graph)] {
            let program = runner_gpu::build(&ctx, &g, Pipelines::Cached).unwrap();
            let got = program.run(&ctx, &input).unwrap();
            grade_record!("runner_gpu", got[0].data(), 2e-4);
            assert_close(&got[0], want, &format!("runner_gpu, {m}×{k}×{h}×{n}"));
            let compiled = compile(&ctx, &g, Options::default()).unwrap();
            let got = compiled.program.run(&ctx, &input).unwrap();
            grade_record!("compiler", got[0].data(), 2e-4);
            assert_close(&got[0], want, &format!("compiler, {m}×{k}×{h}×{n}"));
        }
    }
    grade_ok!("tiled_linear_hidden_in_graph_runners");
}
