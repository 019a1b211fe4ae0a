//! Peak device memory of random graphs before and after your buffer plan, and a check that the
//! planned run gives the same numbers as `runner_cpu`. Bytes, not time: the output is the same on
//! every machine. Run it (once your plan works) with
//! `cargo run --release -p ex_m1_buffer_reuse --example peak_memory`.

use std::error::Error;
use std::process::ExitCode;

use computational_graphs::graph::{GraphBuilder, OpList, VerifiedGraph, runner_cpu, validate};
use computational_graphs::random_graph::random_graph;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_buffer_reuse::{BufferPlan, naive_peak_bytes, plan_buffers, run_planned};

const SIZE: usize = 256;

fn main() -> ExitCode {
    bench_harness::exit_code(report())
}

fn report() -> Result<(), Box<dyn Error>> {
    println!(
        "{:<36} {:>5} {:>14} {:>11} {:>9} {:>11} {:>6}",
        "graph", "nodes", "device buffers", "allocations", "naive MiB", "planned MiB", "saved"
    );
    for depth in [4, 16, 64] {
        let (list, x) = random_graph(1, SIZE, depth);
        row(&format!("random_graph(1, {SIZE}, {depth})"), &list, &x)?;
    }
    // Layers of different widths: freed allocations differ in size, and best fit matters (when
    // the ReLU's output is placed, first fit would take the 2048-wide allocation that the next
    // Linear needs).
    let layers = [
        Layer::Linear(2048),
        Layer::Linear(512),
        Layer::Linear(256),
        Layer::Relu,
        Layer::Linear(2048),
        Layer::Linear(256),
    ];
    let (list, x) = mlp(256, &layers);
    row("mlp 256-2048-512-256-relu-2048-256", &list, &x)?;
    Ok(())
}

fn row(label: &str, list: &OpList, x: &Tensor2D) -> Result<(), Box<dyn Error>> {
    let graph = validate(list)?;
    let plan = plan_buffers(&graph, &[])?;
    check_results(&graph, &plan, x)?;
    let (naive, planned) = (naive_peak_bytes(&graph), plan.peak_bytes());
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    let device_buffers = (0..graph.buffers().len())
        .filter(|&b| graph.is_device(b) && graph.is_used(b))
        .count();
    println!(
        "{label:<36} {:>5} {:>14} {:>11} {:>9.2} {:>11.2} {:>5.1}%",
        graph.nodes().len(),
        device_buffers,
        plan.allocation_bytes.len(),
        mib(naive),
        mib(planned),
        100.0 * (naive - planned) as f64 / naive as f64
    );
    Ok(())
}

/// The plan is only worth its bytes if the results stay exactly those of `runner_cpu`.
fn check_results(
    graph: &VerifiedGraph,
    plan: &BufferPlan,
    x: &Tensor2D,
) -> Result<(), Box<dyn Error>> {
    let want = runner_cpu::run(graph, std::slice::from_ref(x))?;
    let got = run_planned(graph, plan, std::slice::from_ref(x), &[])?;
    if got.outputs != want {
        let why = "the plan shares an allocation between two buffers that are alive together";
        return Err(format!("the planned run's results differ from runner_cpu's: {why}").into());
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Layer {
    Linear(usize),
    Relu,
}

/// A batch of `SIZE` rows of width `input` through these layers, then Softmax.
fn mlp(input: usize, layers: &[Layer]) -> (OpList, Tensor2D) {
    let mut rng = SplitMix64::new(7);
    let mut g = GraphBuilder::new();
    let x = g.input("x", SIZE, input);
    let mut h = g.to_device(x);
    let mut width = input;
    for (i, layer) in layers.iter().enumerate() {
        h = match *layer {
            Layer::Linear(to) => {
                let scale = 1.0 / (width as f32).sqrt();
                let w = g.parameter(
                    &format!("w{i}"),
                    Tensor2D::random(width, to, scale, &mut rng),
                );
                let b = g.parameter(&format!("b{i}"), Tensor2D::random(1, to, scale, &mut rng));
                width = to;
                g.linear(h, w, b)
            }
            Layer::Relu => g.relu(h),
        };
    }
    h = g.softmax(h);
    g.to_host(h);
    let x = Tensor2D::random(SIZE, input, 1.0, &mut rng);
    (g.finish(), x)
}
