//! The op-code compiler: generated kernels agree with the hand-written ones.

mod common;

use common::assert_close;
use computational_graphs::compiler::lower::{OpCode, lower, merge_elementwise};
use computational_graphs::compiler::specialise::{PreprocessError, fill, preprocess};
use computational_graphs::compiler::{Options, compile, compile_choosing_kernels, fuse};
use computational_graphs::graph::{GraphBuilder, runner_gpu, validate};
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// x → Linear → ReLU → ReLU → Linear → Softmax on a rows×cols input (odd sizes welcome).
fn chain(rows: usize, cols: usize) -> (computational_graphs::graph::OpList, Tensor2D) {
    let mut g = GraphBuilder::new();
    let x = g.input("x", rows, cols);
    let mut h = g.to_device(x);
    for (i, seed) in [10u64, 20].into_iter().enumerate() {
        let w = g.parameter(&format!("w{i}"), common::random(cols, cols, seed));
        let b = g.parameter(&format!("b{i}"), common::random(1, cols, seed + 1));
        h = g.linear(h, w, b);
        if i == 0 {
            h = g.relu(h);
            h = g.relu(h);
        }
    }
    h = g.softmax(h);
    g.to_host(h);
    (g.finish(), common::random(rows, cols, 3))
}

// ANCHOR: merge_test
#[test]
fn element_wise_op_codes_merge_into_their_producer() {
    let (list, _) = chain(4, 6);
    let graph = validate(&list).unwrap();
    let kernels = merge_elementwise(&graph, lower(&graph));
    // Linear+ReLU+ReLU is one kernel; Linear+Softmax is another.
    assert_eq!(kernels.len(), 2, "{kernels:#?}");
    let relus = kernels[0]
        .ops
        .iter()
        .filter(|op| **op == OpCode::Relu)
        .count();
    assert_eq!(relus, 2);
    assert!(kernels[1].ops.contains(&OpCode::RowMax));
    assert!(matches!(kernels[1].ops[0], OpCode::MatMul { .. }));
}
// ANCHOR_END: merge_test

#[test]
fn generated_kernels_agree_with_hand_written_ones() {
    let ctx = GpuContext::for_tests();
    for (rows, cols) in [(1, 1), (7, 5), (16, 16), (33, 18)] {
        let (list, x) = chain(rows, cols);
        let graph = validate(&list).unwrap();
        let inputs = [x];
        let hand = runner_gpu::build(&ctx, &fuse(&graph), Pipelines::Cached).unwrap();
        let want = &hand.run(&ctx, &inputs).unwrap()[0];
        for tile_matmul in [false, true] {
            let compiled = compile(&ctx, &graph, Options { tile_matmul }).unwrap();
            let got = &compiled.program.run(&ctx, &inputs).unwrap()[0];
            assert_close(got, want, &format!("{rows}×{cols}, tiled: {tile_matmul}"));
            assert_eq!(compiled.program.dispatch_count(), 2);
        }
    }
}

#[test]
fn chosen_kernels_agree_with_the_cpu_on_odd_and_exact_shapes() {
    let ctx = GpuContext::for_tests();
    // 1×7: one row; 33×18: nothing divides; 64×64: 32×32 blocks tile it exactly (no checks).
    for (rows, cols) in [(1, 7), (33, 18), (64, 64)] {
        let (list, x) = chain(rows, cols);
        let graph = validate(&list).unwrap();
        let inputs = [x];
        let want = &computational_graphs::immediate::cpu_reference(&graph, &inputs).unwrap()[0];
        let compiled = compile_choosing_kernels(&ctx, &graph, Options::default()).unwrap();
        let got = &compiled.program.run(&ctx, &inputs).unwrap()[0];
        assert_close(got, want, &format!("{rows}×{cols}, kernels chosen"));
        // Two tuned Linears, then the softmax cut off the second one.
        assert_eq!(compiled.program.dispatch_count(), 3);
    }
}

/// A graph ending Linear → ReLU → Softmax, as fusion leaves it: with kernels chosen per shape,
/// its last Linear runs on a tuned matmul and the softmax in place after it (one dispatch more
/// than the fused node), on shapes whose rows are shorter and longer than a workgroup.
#[test]
fn a_linear_carrying_softmax_runs_as_a_tuned_linear_then_the_softmax() {
    let ctx = GpuContext::for_tests();
    for (rows, cols) in [(1, 7), (9, 130)] {
        let mut g = GraphBuilder::new();
        let x = g.input("x", rows, cols);
        let mut h = g.to_device(x);
        for i in 0..2u64 {
            let w = g.parameter(&format!("w{i}"), common::random(cols, cols, 70 + i));
            let b = g.parameter(&format!("b{i}"), common::random(1, cols, 80 + i));
            h = g.linear(h, w, b);
            h = g.relu(h);
        }
        h = g.softmax(h);
        g.to_host(h);
        let graph = computational_graphs::compiler::fuse(&validate(&g.finish()).unwrap());
        let inputs = [common::random(rows, cols, 90)];
        let want = &computational_graphs::immediate::cpu_reference(&graph, &inputs).unwrap()[0];
        let generated = compile(&ctx, &graph, Options::default()).unwrap();
        assert_eq!(generated.program.dispatch_count(), 2, "{rows}×{cols}");
        let chosen = compile_choosing_kernels(&ctx, &graph, Options::default()).unwrap();
        assert_eq!(chosen.program.dispatch_count(), 3, "{rows}×{cols}");
        let got = &chosen.program.run(&ctx, &inputs).unwrap()[0];
        assert_close(
            got,
            want,
            &format!("{rows}×{cols}, softmax after a tuned Linear"),
        );
    }
}

// ANCHOR: cache_test
#[test]
fn identical_generated_sources_share_one_pipeline() {
    let ctx = GpuContext::for_tests();
    // x → Linear → Linear → Linear → Softmax: three kernels, the first two identical.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 8, 8);
    let mut h = g.to_device(x);
    for i in 0..3u64 {
        let w = g.parameter(&format!("w{i}"), common::random(8, 8, i));
        let b = g.parameter(&format!("b{i}"), common::random(1, 8, 10 + i));
        h = g.linear(h, w, b);
    }
    h = g.softmax(h);
    g.to_host(h);
    let graph = validate(&g.finish()).unwrap();
    let compiled = compile(&ctx, &graph, Options::default()).unwrap();
    assert_eq!(compiled.kernels.len(), 3);
    assert_eq!(compiled.kernels[0].source, compiled.kernels[1].source);
    assert_eq!(
        ctx.pipelines.compilations(),
        2,
        "two distinct sources, two compilations"
    );
    compile(&ctx, &graph, Options::default()).unwrap();
    assert_eq!(
        ctx.pipelines.compilations(),
        2,
        "compiling again hits the cache"
    );
}
// ANCHOR_END: cache_test

// ANCHOR: specialise_test
#[test]
fn defines_select_sections_of_a_template() {
    let template = "a\n#ifdef CHECK\nb\n#else\nc\n#endif\nd\n";
    assert_eq!(preprocess(template, &["CHECK"]).unwrap(), "a\nb\nd\n");
    assert_eq!(preprocess(template, &[]).unwrap(), "a\nc\nd\n");
    assert_eq!(
        preprocess("#ifdef X\n", &[]),
        Err(PreprocessError::Unclosed { open: 1 })
    );
    assert_eq!(
        preprocess("a\n#endif\n", &[]),
        Err(PreprocessError::EndifWithoutIfdef { line: 2 })
    );
    assert_eq!(
        preprocess("#else\n", &[]),
        Err(PreprocessError::ElseWithoutIfdef { line: 1 })
    );
}
// ANCHOR_END: specialise_test

#[test]
fn fill_writes_values_into_placeholders_and_leaves_other_braces_alone() {
    let template = "{HEAD}\n#ifdef BIAS\nlet b = {N}u;\n#endif\nfn f() { let x = {N}u; }\n";
    let filled = fill(
        template,
        &["BIAS"],
        &[("HEAD", &"// {N} stays"), ("N", &16)],
    )
    .unwrap();
    assert_eq!(
        filled, "// {N} stays\nlet b = 16u;\nfn f() { let x = 16u; }\n",
        "a value is not searched for placeholders"
    );
    assert_eq!(
        fill("a = {MISSING};\n", &[], &[("N", &1)]),
        Err(PreprocessError::NoValue {
            name: "MISSING".into()
        })
    );
}

#[test]
fn the_bounds_check_is_compiled_in_only_when_needed() {
    let ctx = GpuContext::for_tests();
    for (n, check) in [(16, false), (17, true)] {
        let (list, _) = chain(n, n);
        let compiled = compile(&ctx, &validate(&list).unwrap(), Options::default()).unwrap();
        let source = &compiled.kernels[0].source;
        assert_eq!(
            source.contains("if row >= ROWS"),
            check,
            "{n}×{n}:\n{source}"
        );
        assert!(
            source.contains("workgroupBarrier"),
            "the default tiles the product"
        );
    }
}

#[test]
fn the_generated_kernel_shown_in_the_book_is_current() {
    // The op-codes chapter shows this kernel; the test keeps the text in the book honest.
    let ctx = GpuContext::for_tests();
    let (list, _) = chain(33, 18);
    let compiled = compile(
        &ctx,
        &validate(&list).unwrap(),
        Options { tile_matmul: false },
    )
    .unwrap();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/generated_linear_relu_relu.wgsl"
    );
    if std::env::var_os("REGENERATE").is_some() {
        std::fs::write(path, &compiled.kernels[0].source).unwrap();
    }
    let shown = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        compiled.kernels[0].source, shown,
        "run with REGENERATE=1 after changing codegen"
    );
}
