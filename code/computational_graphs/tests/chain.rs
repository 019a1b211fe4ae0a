//! Chain kernels: a run of small Linears, ReLUs and a final softmax in one dispatch, checked
//! against the CPU on odd widths, on one row and on a few rows, and on the benchmark's random
//! graphs, in both layouts (one workgroup per row, and blocks of rows); a buffer read by a
//! second node ends the chain; the autotuner times the layouts and caches the winner per chain.

mod common;

use common::assert_close;
use computational_graphs::compiler::autotune::{AutotuneSettings, Autotuner, ChainKey, Source};
use computational_graphs::compiler::chain_block::ChainLayout;
use computational_graphs::compiler::{
    LinearKernels, Options, compile_with_chain_layout, compile_with_chains,
};
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

/// [`chained_dispatches`] with every chain in `layout`.
fn dispatches_in_layout(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    input: Tensor2D,
    layout: ChainLayout,
) -> usize {
    let inputs = [input];
    let want = &cpu_reference(graph, &inputs).unwrap()[0];
    let linears = LinearKernels::Heuristic;
    let compiled =
        compile_with_chain_layout(ctx, graph, Options::default(), linears, layout).unwrap();
    let got = &compiled.program.run(ctx, &inputs).unwrap()[0];
    assert_close(got, want, &format!("{layout:?}"));
    compiled.program.dispatch_count()
}

/// Every layout the tuner may try that this device holds for a chain `widest` columns wide,
/// the one-row kernel included; at least one of them with blocks of rows.
fn every_layout(ctx: &GpuContext, widest: usize) -> Vec<ChainLayout> {
    let limits = ctx.device.limits();
    let usable: Vec<ChainLayout> = ChainLayout::candidates(usize::MAX / 4)
        .into_iter()
        .filter(|l| l.unusable(widest, &limits).is_none())
        .collect();
    assert!(usable.len() >= 4, "{usable:?}");
    usable
}

/// x (rows×width) → ReLU → `depth` × (Linear width→width → ReLU) → Softmax: `depth` + 1 links.
fn square_chain(rows: usize, width: usize, depth: usize) -> (OpList, Tensor2D) {
    let mut g = GraphBuilder::new();
    let x = g.input("x", rows, width);
    let mut h = g.to_device(x);
    h = g.relu(h);
    let scale = 1.0 / (width as f32).sqrt();
    for i in 0..depth as u64 {
        let mut w = common::random(width, width, 200 + i);
        w.data_mut().iter_mut().for_each(|v| *v *= scale);
        let b = g.parameter(&format!("b{i}"), common::random(1, width, 300 + i));
        let w = g.parameter(&format!("w{i}"), w);
        h = g.linear(h, w, b);
        h = g.relu(h);
    }
    h = g.softmax(h);
    g.to_host(h);
    (g.finish(), common::random(rows, width, 400))
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

// ANCHOR: block_layouts
#[test]
fn every_block_layout_agrees_with_the_cpu_on_odd_widths_rows_and_depths() {
    let ctx = GpuContext::for_tests();
    for (width, rows, depth) in [
        (37, 7, 5),
        (61, 1, 1),
        (129, 33, 5),
        (256, 7, 1),
        (256, 33, 5),
    ] {
        let (list, x) = square_chain(rows, width, depth);
        let graph = validate(&list).unwrap();
        for layout in every_layout(&ctx, width) {
            let what = format!("{layout:?}, {rows}×{width}, depth {depth}");
            assert_eq!(
                dispatches_in_layout(&ctx, &graph, x.clone(), layout),
                1,
                "{what}"
            );
        }
    }
}
// ANCHOR_END: block_layouts

#[test]
fn block_layouts_run_narrowing_chains_and_random_graphs() {
    let ctx = GpuContext::for_tests();
    for rows in [1, 9] {
        let (list, x) = narrowing(rows);
        let graph = validate(&list).unwrap();
        for layout in every_layout(&ctx, 20) {
            assert_eq!(dispatches_in_layout(&ctx, &graph, x.clone(), layout), 1);
        }
    }
    let (list, x) = random_graph(2, 64, 16);
    let graph = validate(&list).unwrap();
    for layout in every_layout(&ctx, 64) {
        assert_eq!(dispatches_in_layout(&ctx, &graph, x.clone(), layout), 1);
    }
}

#[test]
fn the_heuristic_streams_blocks_of_two_rows_and_the_candidates_start_with_it() {
    let two = ChainLayout::Stream { rows: 2 };
    // It fits WebGPU's smallest workgroup memory (16 KiB) at any width a chain takes.
    let smallest = gpu_context::wgpu::Limits::default();
    for rows in [2, 7, 256, 4096] {
        assert_eq!(ChainLayout::heuristic(rows, 256, &smallest), two);
    }
    assert_eq!(
        ChainLayout::heuristic(1, 256, &smallest),
        ChainLayout::RowPerWorkgroup
    );
    for widest in [1, 37, 65, 129, 256] {
        assert_eq!(two.or_one_row(widest, &smallest), two, "{widest} wide");
    }
    let too_tall = ChainLayout::Stream { rows: 16 };
    assert_eq!(
        too_tall.or_one_row(256, &smallest),
        ChainLayout::RowPerWorkgroup
    );
    let candidates = ChainLayout::candidates(256);
    assert_eq!(candidates[0], two);
    for (i, layout) in candidates.iter().enumerate() {
        assert!(!candidates[..i].contains(layout), "{layout:?} twice");
    }
    // Blocks far taller than the chain are left out; one row: no block holds fewer than two.
    assert!(ChainLayout::candidates(3).iter().all(|l| match l {
        ChainLayout::Block { rows, .. } | ChainLayout::Stream { rows } => *rows < 6,
        ChainLayout::RowPerWorkgroup => true,
    }));
    assert_eq!(ChainLayout::candidates(1), [ChainLayout::RowPerWorkgroup]);
}

#[test]
fn a_layout_the_device_cannot_hold_is_refused() {
    let ctx = GpuContext::for_tests();
    let limits = ctx.device.limits();
    let too_tall = ChainLayout::Block {
        rows: 32,
        k_step: 16,
    };
    assert!(too_tall.unusable(256, &limits).is_some());
    let small = gpu_context::wgpu::Limits {
        max_compute_workgroup_storage_size: 16 << 10,
        ..limits.clone()
    };
    let large = ChainLayout::Block {
        rows: 16,
        k_step: 16,
    };
    let why = large
        .unusable(256, &small)
        .expect("33 KiB do not fit 16 KiB");
    assert!(why.contains("workgroup memory"), "{why}");
    assert_eq!(ChainLayout::RowPerWorkgroup.unusable(256, &small), None);
}

#[test]
fn the_autotuner_times_the_layouts_and_caches_the_winner_per_chain() {
    let ctx = GpuContext::for_tests();
    let dir = tempfile::tempdir().unwrap();
    let settings = AutotuneSettings {
        cache_file: Some(dir.path().join("cache.json")),
        tune_software: true,
        samples: 1,
        warm_up: Some(std::time::Duration::ZERO),
    };
    let (list, x) = square_chain(33, 61, 5);
    let graph = validate(&list).unwrap();
    let inputs = [x];
    let want = &cpu_reference(&graph, &inputs).unwrap()[0];
    let mut tuner = Autotuner::new(&ctx, settings.clone()).unwrap();
    let compiled = compile_with_chains(
        &ctx,
        &graph,
        Options::default(),
        LinearKernels::Autotuned(&mut tuner),
    )
    .unwrap();
    assert_eq!(compiled.program.dispatch_count(), 1);
    assert_close(
        &compiled.program.run(&ctx, &inputs).unwrap()[0],
        want,
        "tuned chain",
    );
    let [record] = tuner.chain_records.as_slice() else {
        panic!("one chain, one record: {:?}", tuner.chain_records);
    };
    assert_eq!(record.source, Source::Tuned);
    assert_eq!(record.key.rows, 33);
    assert_eq!(record.key.steps, "relu 61, 61→61 relu ×5, softmax 61");
    // Every candidate is timed (none differs from the CPU) or does not fit, the winner timed.
    for (layout, why) in &record.rejected {
        assert!(why.contains("workgroup memory"), "{layout:?}: {why}");
    }
    let tried = record.timed.len() + record.rejected.len();
    assert_eq!(tried, ChainLayout::candidates(33).len());
    assert!(record.timed.iter().any(|(l, _)| *l == record.winner));
    tuner.save().unwrap();
    // A second tuner reads the winner from the file; another row count is another chain.
    let mut again = Autotuner::new(&ctx, settings).unwrap();
    compile_with_chains(
        &ctx,
        &graph,
        Options::default(),
        LinearKernels::Autotuned(&mut again),
    )
    .unwrap();
    assert_eq!(again.chain_records[0].source, Source::Cache);
    assert_eq!(again.chain_records[0].winner, record.winner);
    let other = ChainKey {
        rows: 34,
        ..record.key.clone()
    };
    assert!(again.cache().get_chain(again.adapter(), &other).is_none());
}

#[test]
fn software_adapters_get_the_heuristic_layout_without_tuning() {
    let ctx = GpuContext::for_tests();
    let (list, x) = square_chain(7, 37, 1);
    let graph = validate(&list).unwrap();
    let mut tuner = Autotuner::new(&ctx, AutotuneSettings::default()).unwrap();
    let inputs = [x];
    let compiled = compile_with_chains(
        &ctx,
        &graph,
        Options::default(),
        LinearKernels::Autotuned(&mut tuner),
    )
    .unwrap();
    let want = &cpu_reference(&graph, &inputs).unwrap()[0];
    assert_close(
        &compiled.program.run(&ctx, &inputs).unwrap()[0],
        want,
        "heuristic",
    );
    let record = &tuner.chain_records[0];
    assert_eq!(record.source, Source::Heuristic);
    assert_eq!(
        record.winner,
        ChainLayout::heuristic(7, 37, &ctx.device.limits())
    );
    assert!(record.timed.is_empty());
    assert!(tuner.tuning_time().is_zero());
}
