//! The buffer-reusing CPU runner computes exactly what the allocating one does, run after run,
//! and refuses a workspace or inputs that do not fit the graph.

use computational_graphs::Error;
use computational_graphs::graph::runner_cpu::{self, Workspace};
use computational_graphs::graph::{fuse, validate};
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;

#[test]
fn reusing_runner_gives_bit_identical_outputs_every_run() {
    for (seed, size, depth) in [(1, 19, 8), (2, 33, 12), (3, 5, 6), (4, 1, 3), (5, 64, 16)] {
        let (list, x) = random_graph(seed, size, depth);
        let graph = validate(&list).unwrap();
        for g in [graph.clone(), fuse(&graph)] {
            let inputs = [x.clone()];
            let want = runner_cpu::run(&g, &inputs).unwrap();
            let mut workspace = Workspace::new(&g);
            // The first run sizes the buffers, the later ones overwrite them: all must agree.
            for run in 0..3 {
                runner_cpu::run_reusing(&g, &inputs, &mut workspace).unwrap();
                let got: Vec<&Tensor2D> = workspace.outputs().collect();
                assert_eq!(got.len(), want.len(), "seed {seed}, run {run}");
                for (got, want) in got.iter().zip(&want) {
                    assert_eq!(*got, want, "seed {seed}, {size}×{size}, run {run}");
                }
            }
        }
    }
}

#[test]
fn a_new_input_gives_a_new_result_from_the_same_workspace() {
    let (list, x) = random_graph(7, 12, 8);
    let graph = validate(&list).unwrap();
    let mut workspace = Workspace::new(&graph);
    let other = Tensor2D::new(x.rows(), x.cols(), x.data().iter().map(|v| -v).collect()).unwrap();
    for input in [&x, &other, &x] {
        let inputs = [input.clone()];
        runner_cpu::run_reusing(&graph, &inputs, &mut workspace).unwrap();
        let want = runner_cpu::run(&graph, &inputs).unwrap();
        assert_eq!(workspace.outputs().next(), Some(&want[0]));
    }
}

#[test]
fn wrong_inputs_and_foreign_workspaces_are_errors() {
    let (list, x) = random_graph(1, 8, 6);
    let graph = validate(&list).unwrap();
    let mut workspace = Workspace::new(&graph);
    let wrong_shape = [Tensor2D::zeros(x.rows() + 1, x.cols())];
    let err = runner_cpu::run_reusing(&graph, &wrong_shape, &mut workspace).unwrap_err();
    assert!(matches!(err, Error::Shape { .. }), "{err}");
    let err = runner_cpu::run_reusing(&graph, &[], &mut workspace).unwrap_err();
    assert!(err.to_string().contains("inputs"), "{err}");

    let (other_list, _) = random_graph(2, 8, 11);
    let other = validate(&other_list).unwrap();
    let mut foreign = Workspace::new(&other);
    let err = runner_cpu::run_reusing(&graph, &[x], &mut foreign).unwrap_err();
    assert!(err.to_string().contains("Workspace::new"), "{err}");
}
