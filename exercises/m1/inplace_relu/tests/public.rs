//! Public tests: run them with `cargo nextest run -p ex_m1_inplace_relu`.

use computational_graphs::graph::{GraphBuilder, VerifiedGraph, runner_cpu, validate};
use computational_graphs::random_graph::random_graph;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_inplace_relu::{AliasedRunner, InPlaceError, check_in_place, plan_in_place};

/// Nodes: 0 HostToDevice, 1 Linear, 2 ReLU, 3 DeviceToHost; with `send_back_too`, the Linear's
/// output is also sent back after the ReLU (node 4).
fn linear_relu(send_back_too: bool) -> VerifiedGraph {
    let mut rng = SplitMix64::new(1);
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 3);
    let d = g.to_device(x);
    let w = g.parameter("w", Tensor2D::random(3, 3, 1.0, &mut rng));
    let b = g.parameter("b", Tensor2D::random(1, 3, 1.0, &mut rng));
    let h = g.linear(d, w, b);
    let r = g.relu(h);
    g.to_host(r);
    if send_back_too {
        g.to_host(h);
    }
    validate(&g.finish()).unwrap()
}

#[test]
fn inplace_relu_public_relu_after_linear_runs_in_place() {
    assert_eq!(check_in_place(&linear_relu(false), 2), Ok(()));
}

#[test]
fn inplace_relu_public_a_later_reader_is_refused() {
    let graph = linear_relu(true);
    let h = graph.nodes()[1].output();
    assert_eq!(
        check_in_place(&graph, 2),
        Err(InPlaceError::ReadLater {
            node: 2,
            input: h,
            name: graph.buffer(h).name.clone(),
            reader: 4
        })
    );
}

#[test]
fn inplace_relu_public_same_results_as_runner_cpu() {
    let (list, x) = random_graph(2, 8, 12);
    let graph = validate(&list).unwrap();
    let plan = plan_in_place(&graph);
    assert!(
        !plan.in_place.is_empty(),
        "this graph has ReLUs to run in place"
    );
    let inputs = [x];
    let want = runner_cpu::run(&graph, &inputs).unwrap();
    let mut runner = AliasedRunner::new(&graph, &plan).unwrap();
    for run in 1..=2 {
        assert_eq!(runner.run(&inputs).unwrap(), want, "run {run}");
    }
}
