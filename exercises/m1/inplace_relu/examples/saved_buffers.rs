//! How many buffers the in-place pass saves on random graphs, before and after fusion, with a
//! check that two runs in a row give exactly `runner_cpu`'s results. Counts, not time: the
//! output is the same on every machine. Run it (once your pass works) with
//! `cargo run --release -p ex_m1_inplace_relu --example saved_buffers`.

use std::error::Error;
use std::process::ExitCode;

use computational_graphs::compiler::fuse;
use computational_graphs::graph::{NodeKind, VerifiedGraph, runner_cpu, validate};
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;
use ex_m1_inplace_relu::{AliasedRunner, plan_in_place};

const SIZE: usize = 256;

fn main() -> ExitCode {
    bench_harness::exit_code(report())
}

fn report() -> Result<(), Box<dyn Error>> {
    println!(
        "{:<26} {:>7} {:>5} {:>6} {:>8} {:>14} {:>9}",
        "graph", "fused", "nodes", "ReLUs", "in place", "device buffers", "saved MiB"
    );
    for depth in [4, 16, 64] {
        let (list, x) = random_graph(1, SIZE, depth);
        let graph = validate(&list)?;
        let label = format!("random_graph(1, {SIZE}, {depth})");
        row(&label, "no", &graph, &x)?;
        row(&label, "yes", &fuse(&graph), &x)?;
    }
    Ok(())
}

fn row(
    label: &str,
    fused: &str,
    graph: &VerifiedGraph,
    x: &Tensor2D,
) -> Result<(), Box<dyn Error>> {
    let plan = plan_in_place(graph);
    let inputs = std::slice::from_ref(x);
    let want = runner_cpu::run(graph, inputs)?;
    let mut runner = AliasedRunner::new(graph, &plan)?;
    for _ in 0..2 {
        if runner.run(inputs)? != want {
            return Err(format!(
                "{label}: the in-place run differs from runner_cpu: a ReLU overwrote a value \
                 that something still needed"
            )
            .into());
        }
    }
    let relus = graph
        .nodes()
        .iter()
        .filter(|n| n.kind == NodeKind::Relu)
        .count();
    let device_buffers = (0..graph.buffers().len())
        .filter(|&b| graph.is_device(b) && graph.is_used(b))
        .count();
    println!(
        "{label:<26} {fused:>7} {:>5} {relus:>6} {:>8} {:>14} {:>9.2}",
        graph.nodes().len(),
        plan.in_place.len(),
        device_buffers,
        plan.saved_bytes(graph) as f64 / (1024.0 * 1024.0)
    );
    Ok(())
}
