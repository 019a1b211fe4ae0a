//! Public tests: run them with `cargo nextest run -p ex_m1_buffer_reuse`.

use computational_graphs::graph::{GraphBuilder, VerifiedGraph, runner_cpu, validate};
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;
use ex_m1_buffer_reuse::{last_uses, naive_peak_bytes, plan_buffers, run_planned};

/// Buffers: 0 x (host), 1 its copy on the device, 2 to 4 ReLU outputs, 5 y (host).
/// Nodes: 0 HostToDevice, 1 to 3 ReLU, 4 DeviceToHost.
fn relu_chain() -> VerifiedGraph {
    let mut g = GraphBuilder::new();
    let x = g.input("x", 2, 3);
    let mut h = g.to_device(x);
    for _ in 0..3 {
        h = g.relu(h);
    }
    g.to_host(h);
    validate(&g.finish()).unwrap()
}

#[test]
fn buffer_reuse_public_last_uses_of_a_relu_chain() {
    let last = last_uses(&relu_chain(), &[]).unwrap();
    assert_eq!(
        last,
        vec![Some(0), Some(1), Some(2), Some(3), Some(4), Some(4)]
    );
}

#[test]
fn buffer_reuse_public_relu_chain_plan() {
    let graph = relu_chain();
    let plan = plan_buffers(&graph, &[]).unwrap();
    // Buffer 4 is sent back: an allocation of its own, made first. Buffers 1 and 2 are alive
    // together at node 1; buffer 1 is free again when node 2 writes buffer 3.
    assert_eq!(
        plan.allocation_of,
        vec![None, Some(1), Some(2), Some(1), Some(0), None]
    );
    assert_eq!(plan.allocation_bytes, vec![24, 24, 24]);
    assert_eq!(plan.peak_bytes(), 72);
    assert_eq!(naive_peak_bytes(&graph), 96);
}

#[test]
fn buffer_reuse_public_results_match_runner_cpu() {
    let (list, x) = random_graph(3, 8, 10);
    let graph = validate(&list).unwrap();
    let plan = plan_buffers(&graph, &[]).unwrap();
    assert!(
        plan.peak_bytes() < naive_peak_bytes(&graph),
        "ten layers in a chain need far fewer than one allocation per buffer"
    );
    let inputs = [x];
    let want: Vec<Tensor2D> = runner_cpu::run(&graph, &inputs).unwrap();
    let got = run_planned(&graph, &plan, &inputs, &[]).unwrap();
    assert_eq!(got.outputs, want);
}
