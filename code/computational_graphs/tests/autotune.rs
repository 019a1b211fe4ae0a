//! The autotuner: every configuration it may try is correct on awkward shapes, tuned graphs
//! agree with the CPU, and the cache never serves a winner measured for another adapter or shape.

mod common;

use common::assert_close;
use computational_graphs::compiler::autotune::{
    AdapterKey, AutotuneSettings, Autotuner, CacheFileError, Entry, KernelConfig, LinearKernel,
    ShapeKey, Source, TuneCache, search_space, trial::Trial,
};
use computational_graphs::compiler::{CompiledGraph, LinearKernels, Options, compile_with};
use computational_graphs::graph::{GraphBuilder, OpList, validate};
use computational_graphs::immediate::cpu_reference;
use computational_graphs::matmul_ladder::tuned::Epilogue;
use computational_graphs::ops::gpu::linear_tuning;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// x → Linear → ReLU → Linear on a rows×cols input: one Linear with ReLU, one with bias only.
fn two_linears(rows: usize, cols: usize) -> (OpList, Tensor2D) {
    let mut g = GraphBuilder::new();
    let x = g.input("x", rows, cols);
    let mut h = g.to_device(x);
    for i in 0..2u64 {
        let w = g.parameter(&format!("w{i}"), common::random(cols, cols, 40 + i));
        let b = g.parameter(&format!("b{i}"), common::random(1, cols, 50 + i));
        h = g.linear(h, w, b);
        if i == 0 {
            h = g.relu(h);
        }
    }
    g.to_host(h);
    (g.finish(), common::random(rows, cols, 60))
}

/// `two_linears` on a rows×cols input, validated and compiled with the tuner's kernels.
struct Autotuned {
    compiled: CompiledGraph,
    inputs: [Tensor2D; 1],
    /// What the CPU reference computes from `inputs`: the output the GPU must match.
    want: Tensor2D,
}

fn autotuned_two_linears(
    ctx: &GpuContext,
    tuner: &mut Autotuner,
    rows: usize,
    cols: usize,
) -> Autotuned {
    let (list, x) = two_linears(rows, cols);
    let graph = validate(&list).unwrap();
    let inputs = [x];
    let want = cpu_reference(&graph, &inputs).unwrap().remove(0);
    let compiled = compile_with(
        ctx,
        &graph,
        Options::default(),
        LinearKernels::Autotuned(tuner),
    )
    .unwrap();
    Autotuned {
        compiled,
        inputs,
        want,
    }
}

/// Tuning on lavapipe to check what it chooses and caches, not how fast: one sample, and no
/// warm-up (it brings a GPU's clocks up for fair timings; it plays no part in correctness).
fn tuning_everywhere(cache_file: Option<std::path::PathBuf>) -> AutotuneSettings {
    AutotuneSettings {
        cache_file,
        tune_software: true,
        samples: 1,
        warm_up: Some(std::time::Duration::ZERO),
    }
}

// ANCHOR: every_candidate
/// Every configuration of the search space, compiled for one shape and compared with the CPU.
fn every_configuration_matches_the_cpu(m: usize, k: usize, n: usize, epilogue: Epilogue) {
    let ctx = GpuContext::for_tests();
    let shape = ShapeKey { m, k, n, epilogue };
    let trial = Trial::new(&ctx, shape).unwrap();
    for config in search_space() {
        let verdict = trial
            .check_kernel(&ctx, &config.kernel(m, k, n, epilogue))
            .unwrap();
        assert!(verdict.is_ok(), "{shape:?} {config:?}: {:?}", verdict.err());
    }
}

#[test]
fn every_configuration_is_correct_on_an_odd_shape() {
    every_configuration_matches_the_cpu(9, 15, 21, Epilogue::BiasRelu);
}

#[test]
fn every_configuration_is_correct_on_a_prime_shape() {
    every_configuration_matches_the_cpu(13, 7, 11, Epilogue::Bias);
}

#[test]
fn every_configuration_is_correct_on_one_row() {
    every_configuration_matches_the_cpu(1, 17, 36, Epilogue::BiasRelu);
}

#[test]
fn every_configuration_is_correct_on_one_column() {
    every_configuration_matches_the_cpu(37, 5, 1, Epilogue::None);
}

/// 128×16 · 16×128: the largest blocks tile it exactly, so they run with vec4 access and no
/// edge tests (and without wgpu's checks where the kernel proves its indexing).
#[test]
fn every_configuration_is_correct_on_an_exact_shape() {
    every_configuration_matches_the_cpu(128, 16, 128, Epilogue::BiasRelu);
}
// ANCHOR_END: every_candidate

#[test]
fn autotuned_graphs_agree_with_the_cpu() {
    let ctx = GpuContext::for_tests();
    let mut tuner = Autotuner::new(&ctx, tuning_everywhere(None)).unwrap();
    for (rows, cols) in [(5, 12), (1, 8), (19, 3)] {
        let tuned = autotuned_two_linears(&ctx, &mut tuner, rows, cols);
        let got = &tuned.compiled.program.run(&ctx, &tuned.inputs).unwrap()[0];
        assert_close(got, &tuned.want, &format!("{rows}×{cols}, autotuned"));
    }
    // Two epilogues per size, three sizes: six shapes tuned, none rejected.
    let tuned: Vec<_> = tuner
        .records
        .iter()
        .filter(|r| r.source == Source::Tuned)
        .collect();
    assert_eq!(tuned.len(), 6);
    assert!(
        tuned
            .iter()
            .all(|r| r.rejected.is_empty() && r.winner_s.is_some())
    );
    assert_eq!(tuner.cache().len(), 6);
}

#[test]
fn software_adapters_get_the_heuristic_unless_tuning_is_asked_for() {
    let ctx = GpuContext::for_tests();
    assert!(ctx.report().is_software(), "the tests run on lavapipe");
    let mut tuner = Autotuner::new(&ctx, AutotuneSettings::default()).unwrap();
    let shape = ShapeKey {
        m: 64,
        k: 64,
        n: 64,
        epilogue: Epilogue::Bias,
    };
    let chosen = tuner.choose(&ctx, shape).unwrap();
    assert_eq!(
        chosen,
        LinearKernel::Tiled(linear_tuning(64, 64, 64, Epilogue::Bias))
    );
    assert_eq!(tuner.records[0].source, Source::Heuristic);
    assert!(tuner.cache().is_empty());
}

// ANCHOR: cache_key_test
#[test]
fn the_cache_never_serves_another_adapter_or_shape() {
    let ctx = GpuContext::for_tests();
    let here = AdapterKey::of(&ctx);
    let elsewhere = AdapterKey {
        driver: format!("{} (another version)", here.driver),
        ..here.clone()
    };
    let shape = ShapeKey {
        m: 8,
        k: 8,
        n: 8,
        epilogue: Epilogue::Bias,
    };
    let odd_config = KernelConfig {
        threads: (8, 4),
        rows: 4,
        vec_cols: 1,
        bk: 8,
        prefetch: false,
        split_k: 1,
    };
    let mut cache = TuneCache::default();
    cache.insert(Entry {
        adapter: elsewhere,
        shape,
        config: odd_config,
        median_us: 1.0,
    });
    assert!(cache.get(&here, &shape).is_none());
    let other_shape = ShapeKey { n: 12, ..shape };
    cache.insert(Entry {
        adapter: here.clone(),
        shape: other_shape,
        config: odd_config,
        median_us: 1.0,
    });
    assert!(cache.get(&here, &shape).is_none());
    assert_eq!(cache.get(&here, &other_shape).unwrap().config, odd_config);

    // A tuner reading that cache from disk tunes this adapter's shape afresh.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tuning.json");
    cache.save(&path).unwrap();
    let mut tuner = Autotuner::new(&ctx, tuning_everywhere(Some(path))).unwrap();
    tuner.choose(&ctx, shape).unwrap();
    assert_eq!(tuner.records[0].source, Source::Tuned);
}
// ANCHOR_END: cache_key_test

#[test]
fn a_second_run_reads_its_winners_from_the_cache_file() {
    let ctx = GpuContext::for_tests();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("tuning.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut chosen = Vec::new();
    for run in 0..2 {
        let mut tuner = Autotuner::new(&ctx, tuning_everywhere(Some(path.clone()))).unwrap();
        let tuned = autotuned_two_linears(&ctx, &mut tuner, 6, 10);
        assert_close(
            &tuned.compiled.program.run(&ctx, &tuned.inputs).unwrap()[0],
            &tuned.want,
            "tuned",
        );
        let expected = if run == 0 {
            Source::Tuned
        } else {
            Source::Cache
        };
        assert!(
            tuner.records.iter().all(|r| r.source == expected),
            "run {run}"
        );
        chosen.push(
            tuner
                .records
                .iter()
                .map(|r| (r.shape, r.winner))
                .collect::<Vec<_>>(),
        );
        tuner.save().unwrap();
    }
    assert_eq!(chosen[0], chosen[1]);
}

#[test]
fn a_malformed_cache_file_is_a_clear_error() {
    let ctx = GpuContext::for_tests();
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("truncated.json", "{\"format\": 1, \"entries\": ["),
        ("future.json", "{\"format\": 99, \"entries\": []}"),
        (
            "wrong_field.json",
            "{\"format\": 1, \"entries\": [{\"adapter\": 3}]}",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let err = Autotuner::new(&ctx, tuning_everywhere(Some(path))).err();
        let Some(err @ CacheFileError::Malformed { .. }) = err else {
            panic!("{name}: expected a malformed-file error, got {err:?}");
        };
        let message = err.to_string();
        assert!(
            message.contains(name) && message.contains("delete it"),
            "{message}"
        );
    }
    // A missing file is an empty cache, not an error: the first run creates it.
    let missing = dir.path().join("missing.json");
    let tuner = Autotuner::new(&ctx, tuning_everywhere(Some(missing))).unwrap();
    assert!(tuner.cache().is_empty());
}

#[test]
fn a_configuration_the_device_cannot_run_is_refused_before_compiling() {
    let ctx = GpuContext::for_tests();
    let limits = ctx.device.limits();
    let too_wide = KernelConfig {
        threads: (64, 64),
        rows: 4,
        vec_cols: 1,
        bk: 16,
        prefetch: true,
        split_k: 1,
    };
    assert!(too_wide.unusable(&limits).is_some());
    let no_slices = KernelConfig {
        threads: (8, 8),
        split_k: 0,
        ..too_wide
    };
    assert!(no_slices.unusable(&limits).is_some());
    let three_rows = KernelConfig {
        rows: 3,
        threads: (8, 8),
        ..too_wide
    };
    assert!(three_rows.unusable(&limits).is_some());
    assert!(search_space().iter().all(|c| c.unusable(&limits).is_none()));
}

#[test]
fn candidates_start_with_the_heuristic_and_leave_out_blocks_larger_than_the_product() {
    for (m, k, n) in [(64, 64, 64), (1024, 1024, 1024), (1, 17, 36), (37, 5, 1)] {
        let heuristic = linear_tuning(m, k, n, Epilogue::Bias);
        let list = computational_graphs::compiler::autotune::candidates(m, k, n, &heuristic);
        assert_eq!(list[0], KernelConfig::of(&heuristic), "{m}×{k}×{n}");
        for (i, c) in list.iter().enumerate().skip(1) {
            let (bm, bn) = c.block();
            assert!(
                bm as usize <= m.next_power_of_two().max(16),
                "{c:?} for {m}×{n}"
            );
            assert!(
                bn as usize <= n.next_power_of_two().max(32),
                "{c:?} for {m}×{n}"
            );
            assert!(!list[..i].contains(c), "{c:?} twice");
        }
    }
    // At 1024² every single-pass configuration of the search space fits (the heuristic's is one
    // of them); of split-K, only the 128×128 blocks are too few (64) to fill a large GPU.
    let big = linear_tuning(1024, 1024, 1024, Epilogue::Bias);
    let all = computational_graphs::compiler::autotune::candidates(1024, 1024, 1024, &big);
    let single = search_space().iter().filter(|c| c.split_k == 1).count();
    assert_eq!(all.iter().filter(|c| c.split_k == 1).count(), single);
    assert!(
        all.iter()
            .filter(|c| c.split_k > 1)
            .all(|c| c.block() == (128, 128))
    );
}

#[test]
fn split_k_is_a_candidate_only_where_the_blocks_are_too_few() {
    use computational_graphs::compiler::autotune::candidates;
    // Tall-skinny (k far larger than m·n) and small shapes: a handful of blocks.
    for (m, k, n) in [(4, 512, 8), (64, 64, 64), (256, 256, 256)] {
        let list = candidates(m, k, n, &linear_tuning(m, k, n, Epilogue::Bias));
        let split: Vec<_> = list.iter().filter(|c| c.split_k > 1).collect();
        assert!(!split.is_empty(), "{m}×{k}×{n}: no split-K candidate");
        for c in split {
            let (bm, bn) = c.block();
            let blocks = m.div_ceil(bm as usize) * n.div_ceil(bn as usize);
            assert!(blocks < 128, "{m}×{k}×{n}: {c:?} has {blocks} blocks");
            assert!(k >= 2 * 16 * c.split_k as usize, "{m}×{k}×{n}: {c:?}");
        }
    }
    // Enough blocks already, or too little k to cut.
    for (m, k, n) in [(2048, 2048, 2048), (64, 8, 64)] {
        let list = candidates(m, k, n, &linear_tuning(m, k, n, Epilogue::Bias));
        assert!(list.iter().all(|c| c.split_k == 1), "{m}×{k}×{n}");
    }
}

#[test]
fn tuning_a_tall_skinny_shape_checks_its_split_k_candidates() {
    let ctx = GpuContext::for_tests();
    let mut tuner = Autotuner::new(&ctx, tuning_everywhere(None)).unwrap();
    let shape = ShapeKey {
        m: 3,
        k: 300,
        n: 5,
        epilogue: Epilogue::BiasRelu,
    };
    tuner.choose(&ctx, shape).unwrap();
    let record = &tuner.records[0];
    assert_eq!(record.source, Source::Tuned);
    let split = computational_graphs::compiler::autotune::candidates(
        3,
        300,
        5,
        &linear_tuning(3, 300, 5, Epilogue::BiasRelu),
    )
    .into_iter()
    .filter(|c| c.split_k > 1)
    .count();
    assert!(split >= 3, "{split} split-K candidates");
    assert!(record.rejected.is_empty(), "{:?}", record.rejected);
}

// ANCHOR: split_k_graph
/// A winner from the cache file that splits k: the graph runs two dispatches per Linear (the
/// slices, then their sum with the epilogue) and still agrees with the CPU.
#[test]
fn a_split_k_winner_runs_as_two_dispatches_and_agrees_with_the_cpu() {
    let ctx = GpuContext::for_tests();
    let (rows, cols) = (3, 70);
    let split = KernelConfig {
        threads: (8, 4),
        rows: 4,
        vec_cols: 1,
        bk: 16,
        prefetch: false,
        split_k: 4,
    };
    let mut cache = TuneCache::default();
    for epilogue in [Epilogue::Bias, Epilogue::BiasRelu] {
        cache.insert(Entry {
            adapter: AdapterKey::of(&ctx),
            shape: ShapeKey {
                m: rows,
                k: cols,
                n: cols,
                epilogue,
            },
            config: split,
            median_us: 1.0,
        });
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tuning.json");
    cache.save(&path).unwrap();
    let mut tuner = Autotuner::new(&ctx, tuning_everywhere(Some(path))).unwrap();
    let tuned = autotuned_two_linears(&ctx, &mut tuner, rows, cols);
    assert!(tuner.records.iter().all(|r| r.source == Source::Cache));
    assert_eq!(
        tuned.compiled.program.dispatch_count(),
        4,
        "two Linears, two dispatches each"
    );
    // Twice: the second run reuses the scratch buffer of partial products.
    for _ in 0..2 {
        let got = &tuned.compiled.program.run(&ctx, &tuned.inputs).unwrap()[0];
        assert_close(got, &tuned.want, "split-K Linears");
    }
}
// ANCHOR_END: split_k_graph
