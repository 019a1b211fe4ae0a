//! Chain kernels: a run of small Linears, ReLUs and a final softmax in one dispatch, checked
//! against the CPU on odd widths, on one row and on a few rows (one workgroup per row), and on
//! the benchmark's random graphs; a buffer read by a second node ends the chain.

mod common;

use common::assert_close;
use computational_graphs::compiler::{LinearKernels, Options, compile_with_chains};
use computational_graphs::graph::{GraphBuilder, OpList, VerifiedGraph, validate};
use computational_graphs::immediate::cpu_reference;
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// Compiles with chains, runs, compares with the CPU, and returns the dispatch count.
fn chained_dispatches(ctx: &GpuContext, graph: &VerifiedGraph, input: Tensor2D) -> usize {
    let inputs = [input];
    let want = &cpu_reference(graph, &inputs).unwrap()[0];
    let compiled =
        compile_with_chains(ctx, graph, Options::default(), LinearKernels::Heuristic).unwrap();
    let got = &compiled.program.run(ctx, &inputs).unwrap()[0];
    assert_close(got, want, "chain kernel");
    compiled.program.dispatch_count()
}

/// x (rows×12) → ReLU → Linear 12→20 → ReLU → Linear 20→7 → Softmax.
fn narrowing(rows: usize) -> (OpList, Tensor2D) {
    let mut g = GraphBuilder::new();
    let x = g.input("x", rows, 12);
    let mut h = g.to_device(x);
    h = g.relu(h);
    for (i, (k, n)) in [(12, 20), (20, 7)].into_iter().enumerate() {
        let w = g.parameter(&format!("w{i}"), common::random(k, n, 100 + i as u64));
        let b = g.parameter(&format!("b{i}"), common::random(1, n, 110 + i as u64));
        h = g.linear(h, w, b);
        if i == 0 {
            h = g.relu(h);
        }
    }
    h = g.softmax(h);
    g.to_host(h);
    (g.finish(), common::random(rows, 12, 120))
}

#[test]
fn a_chain_of_odd_widths_runs_in_one_dispatch_and_agrees_with_the_cpu() {
    let ctx = GpuContext::for_tests();
    // One workgroup per row: one row, then a few, then an odd count.
    for rows in [1, 4, 9] {
        let (list, x) = narrowing(rows);
        let graph = validate(&list).unwrap();
        assert_eq!(chained_dispatches(&ctx, &graph, x), 1, "{rows} rows");
    }
}

#[test]
fn random_graphs_agree_with_the_cpu_as_one_chain() {
    let ctx = GpuContext::for_tests();
    for (seed, size, depth) in [(1, 9, 12), (2, 64, 16)] {
        let (list, x) = random_graph(seed, size, depth);
        let graph = validate(&list).unwrap();
        assert_eq!(
            chained_dispatches(&ctx, &graph, x),
            1,
            "{size}², depth {depth}"
        );
    }
}

#[test]
fn a_buffer_read_twice_or_a_wide_layer_ends_the_chain() {
    let ctx = GpuContext::for_tests();
    // h1 is read by the second Linear and sent to the host: it must reach global memory.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 3, 8);
    let h0 = g.to_device(x);
    let w0 = g.parameter("w0", common::random(8, 8, 1));
    let b0 = g.parameter("b0", common::random(1, 8, 2));
    let h1 = g.linear(h0, w0, b0);
    let w1 = g.parameter("w1", common::random(8, 8, 3));
    let b1 = g.parameter("b1", common::random(1, 8, 4));
    let h2 = g.linear(h1, w1, b1);
    let w2 = g.parameter("w2", common::random(8, 8, 5));
    let b2 = g.parameter("b2", common::random(1, 8, 6));
    let h3 = g.linear(h2, w2, b2);
    g.to_host(h1);
    g.to_host(h3);
    let graph = validate(&g.finish()).unwrap();
    let inputs = [common::random(3, 8, 7)];
    let want = cpu_reference(&graph, &inputs).unwrap();
    let compiled =
        compile_with_chains(&ctx, &graph, Options::default(), LinearKernels::Heuristic).unwrap();
    // The first Linear alone, then the last two as one chain.
    assert_eq!(compiled.program.dispatch_count(), 2);
    let got = compiled.program.run(&ctx, &inputs).unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert_close(g, w, "chain after a shared buffer");
    }
    // 257 columns: wider than a chain takes, so each Linear keeps its own kernel.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 257);
    let mut h = g.to_device(x);
    for i in 0..2u64 {
        let w = g.parameter(&format!("w{i}"), common::random(257, 257, 10 + i));
        let b = g.parameter(&format!("b{i}"), common::random(1, 257, 20 + i));
        h = g.linear(h, w, b);
    }
    g.to_host(h);
    let graph = validate(&g.finish()).unwrap();
    assert_eq!(
        chained_dispatches(&ctx, &graph, common::random(2, 257, 30)),
        2
    );
}
