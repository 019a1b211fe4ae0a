//! The quantized and sparse Linear layers in every runner of the course's graphs (lavapipe in CI).

use computational_graphs::compiler::{Options, compile, fuse};
use computational_graphs::graph::{GraphBuilder, OpList, runner_cpu, runner_gpu, validate};
use computational_graphs::immediate;
use computational_graphs::ops::{cpu, gpu::Pipelines};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;
use quantization::model::{GraphLayer, accuracy, held_out_spirals, model_graph, shipped};
use quantization::ops::{DotKind, QuantLinear, RowQuant, SparseLinear};
use quantization::prune::{prune_2_4, prune_magnitude};
use quantization::sparse::{Csr, Sparse24, Weights};

/// Every runner's output for a one-input graph.
fn every_runner(ctx: &GpuContext, list: &OpList, x: &Tensor2D) -> Vec<(String, Tensor2D)> {
    let graph = validate(list).unwrap();
    let inputs = std::slice::from_ref(x);
    let mut out = vec![(
        "cpu".to_string(),
        runner_cpu::run(&graph, inputs).unwrap().remove(0),
    )];
    out.push((
        "immediate".into(),
        immediate::run_graph(ctx, &graph, inputs, Pipelines::Cached)
            .unwrap()
            .remove(0),
    ));
    for (g, tag) in [(graph.clone(), ""), (fuse(&graph), " fused")] {
        let p = runner_gpu::build(ctx, &g, Pipelines::Cached).unwrap();
        out.push((
            format!("gpu runner{tag}"),
            p.run(ctx, inputs).unwrap().remove(0),
        ));
        let c = compile(ctx, &g, Options::default()).unwrap();
        out.push((
            format!("compiler{tag}"),
            c.program.run(ctx, inputs).unwrap().remove(0),
        ));
    }
    out
}

fn one_layer(op: impl computational_graphs::graph::CustomOperator, m: usize, k: usize) -> OpList {
    let mut g = GraphBuilder::new();
    let x = g.input("x", m, k);
    let xd = g.to_device(x);
    let y = g.custom(op, &[xd]);
    let y = g.relu(y);
    g.to_host(y);
    g.finish()
}

#[test]
fn quant_linear_matches_its_cpu_path_and_f32_in_every_runner() {
    let ctx = GpuContext::for_tests();
    let mut rng = SplitMix64::new(5);
    // Odd sizes, and one that spans several workgroups and several 64-value tiles of the row.
    for (m, k, n) in [(3, 5, 7), (17, 33, 9), (40, 133, 37)] {
        let (x, w, b) = (
            Tensor2D::random(m, k, 1.0, &mut rng),
            Tensor2D::random(k, n, 1.0, &mut rng),
            Tensor2D::random(1, n, 1.0, &mut rng),
        );
        let exact = cpu::relu(&cpu::linear(&x, &w, &b).unwrap());
        let kernels = [DotKind::Builtin, DotKind::Shifts]
            .into_iter()
            .flat_map(|dot| [RowQuant::Shared, RowQuant::PerThread].map(|rq| (dot, rq)));
        for (dot, row_quant) in kernels {
            let op = QuantLinear::new(&w, &b, dot)
                .unwrap()
                .with_row_quant(row_quant);
            let cpu_q = cpu::relu(&op.forward(&x));
            // int8 error: a few quantization steps of x·W, far below the values' size (~√k).
            assert!(
                cpu_q.max_abs_diff(&exact) < 0.05 * (k as f32).sqrt(),
                "{m}×{k}×{n}"
            );
            for (runner, got) in every_runner(&ctx, &one_layer(op, m, k), &x) {
                assert!(
                    got.max_abs_diff(&cpu_q) < 1e-3,
                    "{runner} {dot:?} {row_quant:?} {m}×{k}×{n}: {}",
                    got.max_abs_diff(&cpu_q)
                );
            }
        }
    }
}

#[test]
fn sparse_layouts_match_the_dense_product_in_every_runner() {
    let ctx = GpuContext::for_tests();
    let mut rng = SplitMix64::new(6);
    let (m, k, n) = (5, 36, 11);
    let x = Tensor2D::random(m, k, 1.0, &mut rng);
    let w = prune_2_4(&prune_magnitude(
        &Tensor2D::random(k, n, 1.0, &mut rng),
        0.6,
    ))
    .unwrap();
    let b = Tensor2D::random(1, n, 1.0, &mut rng);
    let want = cpu::relu(&cpu::linear(&x, &w, &b).unwrap());
    for weights in [
        Weights::dense(&w),
        Weights::Csr(Csr::from_dense(&w)),
        Weights::Sparse24(Sparse24::from_pruned(&w).unwrap()),
    ] {
        let op = SparseLinear {
            weights,
            bias: b.data().to_vec(),
        };
        let name = computational_graphs::graph::CustomOperator::name(&op);
        for (runner, got) in every_runner(&ctx, &one_layer(op, m, k), &x) {
            assert!(got.max_abs_diff(&want) < 1e-4, "{name} in {runner}");
        }
    }
}

#[test]
fn a_wrong_input_width_is_a_shape_error_naming_the_layer() {
    let op = QuantLinear::new(
        &Tensor2D::zeros(4, 2),
        &Tensor2D::zeros(1, 2),
        DotKind::Builtin,
    )
    .unwrap();
    let err = validate(&one_layer(op, 3, 5)).unwrap_err();
    assert!(
        err.to_string().contains("QuantLinear")
            && err.to_string().contains("give the input 4 columns"),
        "{err}"
    );
    assert!(
        QuantLinear::new(
            &Tensor2D::zeros(4, 2),
            &Tensor2D::zeros(1, 3),
            DotKind::Builtin
        )
        .is_err()
    );
}

#[test]
fn the_model_graph_is_accurate_on_cpu_and_gpu_in_f32_and_int8() {
    let ctx = GpuContext::for_tests();
    let test = held_out_spirals(3, 40, 8);
    let model = shipped();
    let batch = test.x.rows();
    for layer in [GraphLayer::F32, GraphLayer::Int8(DotKind::Builtin)] {
        let list = model_graph(&model, batch, layer).unwrap();
        for (runner, logits) in every_runner(&ctx, &list, &test.x) {
            let acc = accuracy(&logits, &test.labels);
            assert!(acc > 0.95, "{layer:?} in {runner}: accuracy {acc}");
        }
    }
}
