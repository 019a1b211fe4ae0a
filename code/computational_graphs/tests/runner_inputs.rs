//! Every runner checks its inputs as the CPU runner does, and zero-sized tensors are rejected
//! by validation, before any runner sees them.

mod common;

use computational_graphs::compiler::{Options, compile, compile_choosing_kernels};
use computational_graphs::graph::{GraphBuilder, OpList, Rule, runner_cpu, runner_gpu, validate};
use computational_graphs::immediate;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// x (rows×cols) → Linear → ReLU → back to the host.
fn linear_relu(rows: usize, cols: usize) -> OpList {
    let mut g = GraphBuilder::new();
    let x = g.input("x", rows, cols);
    let w = g.parameter("w", common::random(cols, 3, 1));
    let b = g.parameter("b", common::random(1, 3, 2));
    let h = g.to_device(x);
    let h = g.linear(h, w, b);
    let h = g.relu(h);
    g.to_host(h);
    g.finish()
}

#[test]
fn every_runner_rejects_a_mis_shaped_input_with_the_cpu_runners_error() {
    let ctx = GpuContext::for_tests();
    let graph = validate(&linear_relu(4, 2)).unwrap();
    // Same number of floats as the declared 4×2, in other shapes; and a missing input.
    for inputs in [
        vec![common::random(2, 4, 3)],
        vec![common::random(8, 1, 3)],
        vec![],
    ] {
        let want = runner_cpu::run(&graph, &inputs).unwrap_err().to_string();
        let hand = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
        let compiled = compile(&ctx, &graph, Options::default()).unwrap();
        let chosen = compile_choosing_kernels(&ctx, &graph, Options::default()).unwrap();
        let errors = [
            immediate::run_graph(&ctx, &graph, &inputs, Pipelines::Cached).unwrap_err(),
            hand.run(&ctx, &inputs).unwrap_err(),
            compiled.program.run(&ctx, &inputs).unwrap_err(),
            chosen.program.run(&ctx, &inputs).unwrap_err(),
        ];
        for e in errors {
            assert_eq!(e.to_string(), want);
        }
    }
}

#[test]
fn zero_sized_tensors_are_rejected_by_validation() {
    for (rows, cols) in [(0, 2), (3, 0)] {
        let err = validate(&linear_relu(rows, cols)).unwrap_err();
        assert_eq!(err.rule, Rule::ShapeMismatch, "{err}");
        assert!(err.to_string().contains("at least one row"), "{err}");
    }
    // The CPU tensor itself is fine with zero sizes; only graphs and kernels refuse them.
    assert_eq!(Tensor2D::zeros(0, 3).shape(), (0, 3));
}
