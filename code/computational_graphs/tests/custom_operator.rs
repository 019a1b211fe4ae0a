//! A custom operator (a transpose, which changes the shape) runs in every runner and is validated
//! like the built-in ones.

mod common;

use common::{assert_close, random};
use computational_graphs::compiler::{Options, compile, fuse};
use computational_graphs::graph::{
    Custom, CustomKernel, CustomOperator, GraphBuilder, Rule, ShapeError, runner_cpu, runner_gpu,
    validate,
};
use computational_graphs::immediate;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, Error::Graph};
use gpu_context::GpuContext;

// ANCHOR: transpose
struct Transpose;

const TRANSPOSE_WGSL: &str = "
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> input: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let rows = params[0];
    let cols = params[1];
    if id.x >= cols || id.y >= rows {
        return;
    }
    output[id.x * rows + id.y] = input[id.y * cols + id.x];
}
";

impl CustomOperator for Transpose {
    fn name(&self) -> &'static str {
        "Transpose"
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        match inputs {
            [(rows, cols)] => Ok((*cols, *rows)),
            _ => Err(ShapeError::InputCount {
                expected: 1,
                inputs: "the matrix to transpose",
                got: inputs.len(),
            }),
        }
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        let x = inputs[0];
        let data = (0..x.cols())
            .flat_map(|c| (0..x.rows()).map(move |r| x.get(r, c)))
            .collect();
        Tensor2D::new(x.cols(), x.rows(), data)
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        _output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let (rows, cols) = inputs[0];
        Ok(CustomKernel {
            source: TRANSPOSE_WGSL.into(),
            entry_point: "main",
            params: vec![rows as u32, cols as u32],
            workgroups: [(cols as u32).div_ceil(8), (rows as u32).div_ceil(8), 1],
        })
    }
}
// ANCHOR_END: transpose

/// x (m×k) → Linear+ReLU → Transpose → ReLU → back to the host.
fn graph_with_transpose(m: usize, k: usize, n: usize) -> computational_graphs::graph::OpList {
    let mut g = GraphBuilder::new();
    let x = g.input("x", m, k);
    let w = g.parameter("w", random(k, n, 1));
    let b = g.parameter("b", random(1, n, 2));
    let xd = g.to_device(x);
    let h = g.linear(xd, w, b);
    let h = g.relu(h);
    let t = g.custom(Transpose, &[h]);
    let t = g.relu(t);
    g.to_host(t);
    g.finish()
}

#[test]
fn custom_operator_runs_in_every_runner() {
    let ctx = GpuContext::for_tests();
    for (m, k, n) in [(1, 1, 1), (17, 5, 33), (70, 9, 13)] {
        let graph = validate(&graph_with_transpose(m, k, n)).unwrap();
        let x = random(m, k, 3);
        let want = runner_cpu::run(&graph, std::slice::from_ref(&x)).unwrap();
        assert_eq!(want[0].shape(), (n, m));
        let h = x.clone();
        let got = immediate::run_graph(&ctx, &graph, &[h], Pipelines::Cached).unwrap();
        assert_close(&got[0], &want[0], "immediate");
        for g in [graph.clone(), fuse(&graph)] {
            let program = runner_gpu::build(&ctx, &g, Pipelines::Cached).unwrap();
            let got = program.run(&ctx, std::slice::from_ref(&x)).unwrap();
            assert_close(&got[0], &want[0], "graph runner");
            let compiled = compile(&ctx, &g, Options::default()).unwrap();
            let got = compiled
                .program
                .run(&ctx, std::slice::from_ref(&x))
                .unwrap();
            assert_close(&got[0], &want[0], "op-code compiler");
        }
    }
}

#[test]
fn custom_operator_on_its_own_in_immediate_mode() {
    let ctx = GpuContext::for_tests();
    let x = Tensor2D::from_rows(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let got = immediate::custom(&ctx, &Custom::new(Transpose), &[&x]).unwrap();
    assert_eq!(got.shape(), (3, 2));
    assert_eq!(got.data(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
}

#[test]
fn custom_operator_shape_errors_name_the_operator() {
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 3);
    let y = g.input("y", 2, 3);
    let (xd, yd) = (g.to_device(x), g.to_device(y));
    let t = g.custom(Transpose, &[xd, yd]);
    g.to_host(t);
    let Err(err) = validate(&g.finish()) else {
        panic!("a transpose of two inputs was accepted");
    };
    assert_eq!(err.rule, Rule::ShapeMismatch);
    assert_eq!(err.operator, "Transpose");
    assert!(
        err.detail
            .contains("takes 1 input, the matrix to transpose, but got 2"),
        "{err}"
    );
    let shown = Graph(err).to_string();
    assert!(shown.contains("node 2 (Transpose)"), "{shown}");
}
