//! The same random graphs through every runner: CPU, CPU fused, GPU immediate (with and
//! without the pipeline cache), GPU graph, fused, looped, and op-code compiled.

mod common;

use common::assert_close;
use computational_graphs::compiler::{Options, compile, fuse};
use computational_graphs::graph::{NodeKind, runner_cpu, runner_gpu, validate};
use computational_graphs::immediate;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::random_graph::random_graph;
use gpu_context::GpuContext;

const CASES: [(u64, usize, usize); 3] = [(1, 19, 8), (2, 33, 12), (3, 5, 6)];

// ANCHOR: runners_agree
#[test]
fn every_runner_agrees_with_the_cpu() {
    let ctx = GpuContext::for_tests();
    for (seed, size, depth) in CASES {
        let (list, x) = random_graph(seed, size, depth);
        let graph = validate(&list).unwrap();
        let fused = fuse(&graph);
        let inputs = [x];
        let want = &runner_cpu::run(&graph, &inputs).unwrap()[0];
        let what = |name: &str| format!("{name}, seed {seed}, {size}×{size}, depth {depth}");
        let cpu_fused = &runner_cpu::run(&fused, &inputs).unwrap()[0];
        assert_close(cpu_fused, want, &what("CPU fused"));
        for mode in [Pipelines::CompileEveryTime, Pipelines::Cached] {
            let got = &immediate::run_graph(&ctx, &graph, &inputs, mode).unwrap()[0];
            assert_close(got, want, &what(&format!("immediate {mode:?}")));
        }
        for (name, g) in [("graph", &graph), ("graph fused", &fused)] {
            let program = runner_gpu::build(&ctx, g, Pipelines::Cached).unwrap();
            assert_close(&program.run(&ctx, &inputs).unwrap()[0], want, &what(name));
            // The loop reruns the same graph on the same input: same result, read back once.
            let looped = &program.run_loop(&ctx, &inputs, 3).unwrap()[0];
            assert_close(looped, want, &what(&format!("{name} loop")));
        }
        for tile_matmul in [false, true] {
            let compiled = compile(&ctx, &graph, Options { tile_matmul }).unwrap();
            let got = &compiled.program.run_loop(&ctx, &inputs, 2).unwrap()[0];
            assert_close(got, want, &what(&format!("compiled, tiled: {tile_matmul}")));
        }
    }
}
// ANCHOR_END: runners_agree

#[test]
fn fusion_replaces_linear_relu_and_keeps_results() {
    // Seed 2 at depth 12 has Linear→ReLU pairs (checked below), so fusion has work to do.
    let (list, _) = random_graph(2, 8, 12);
    let graph = validate(&list).unwrap();
    let fused = fuse(&graph);
    let count = |g: &computational_graphs::graph::VerifiedGraph, k| {
        g.nodes().iter().filter(|n| n.kind == k).count()
    };
    assert!(
        count(&fused, NodeKind::LinearRelu) > 0,
        "no Linear→ReLU pair in {:?}",
        graph.nodes()
    );
    assert!(fused.nodes().len() < graph.nodes().len());
    assert_eq!(
        count(&graph, NodeKind::Linear),
        count(&fused, NodeKind::Linear)
            + count(&fused, NodeKind::LinearRelu)
            + count(&fused, NodeKind::LinearReluSoftmax)
    );
}

#[test]
fn a_reused_program_reads_back_fresh_results_each_run() {
    let ctx = GpuContext::for_tests();
    let (list, x) = random_graph(4, 9, 5);
    let graph = validate(&list).unwrap();
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let other = common::random(9, 9, 77);
    for input in [&x, &other, &x] {
        let inputs = [input.clone()];
        let want = &runner_cpu::run(&graph, &inputs).unwrap()[0];
        assert_close(
            &program.run(&ctx, &inputs).unwrap()[0],
            want,
            "rerun with new input",
        );
    }
}

#[test]
fn a_graph_too_large_for_the_device_fails_before_any_dispatch() {
    let ctx = GpuContext::for_tests();
    let mut g = computational_graphs::graph::GraphBuilder::new();
    let x = g.input("x", 40_000, 40_000); // 6.4 GB: declared, never allocated on the CPU
    let xd = g.to_device(x);
    let r = g.relu(xd);
    g.to_host(r);
    let graph = validate(&g.finish()).unwrap();
    let err = runner_gpu::build(&ctx, &graph, Pipelines::Cached)
        .err()
        .expect("too large");
    assert!(err.to_string().contains("needs 6400000000 bytes"), "{err}");
    assert_eq!(
        ctx.pipelines.compilations(),
        0,
        "failed before compiling anything"
    );
}

#[test]
fn a_round_trip_through_the_host_becomes_a_device_copy() {
    let ctx = GpuContext::for_tests();
    let mut g = computational_graphs::graph::GraphBuilder::new();
    let x = g.input("x", 7, 5);
    let xd = g.to_device(x);
    let r = g.relu(xd);
    let middle = g.to_host(r); // read back an intermediate result…
    let again = g.to_device(middle); // …and send it back for the rest of the graph
    let s = g.softmax(again);
    g.to_host(s);
    let graph = validate(&g.finish()).unwrap();
    let inputs = [common::random(7, 5, 8)];
    let want = runner_cpu::run(&graph, &inputs).unwrap();
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let got = program.run(&ctx, &inputs).unwrap();
    assert_eq!(got.len(), 2, "both DeviceToHost results come back");
    for (g, w) in got.iter().zip(&want) {
        assert_close(g, w, "round trip");
    }
}
