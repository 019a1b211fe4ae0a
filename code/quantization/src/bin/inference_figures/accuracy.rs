//! How well the shipped model does on points it was trained on, and on points it was not.

use bench_harness::{Csv, Figure, FigureArgs, Sidecar};
use computational_graphs::graph::{runner_cpu, validate};
use quantization::model::{
    Dataset, GraphLayer, SpiralTask, accuracy, held_out_spirals, model_graph, shipped, spirals,
};
use quantization::ops::DotKind;

/// The training task as a [`SpiralTask`]: `spirals` turns its arms by 4 radians over the radius,
/// with up to 0.2 radians of noise.
pub const TRAINING_TASK: SpiralTask = SpiralTask {
    classes: 3,
    turns: 4.0 / std::f32::consts::TAU,
    noise: 0.2,
};

/// The evaluation sets: the training points, the same grid with fresh noise, points at random
/// places along the arms (the training density, seeds training never used), and points spread
/// evenly over the disc, which puts fewer of them near the centre, where the arms meet.
fn datasets() -> [(&'static str, Dataset); 5] {
    [
        ("train: spirals(3, 200, 7)", spirals(3, 200, 7)),
        ("re-noised: spirals(3, 200, 8)", spirals(3, 200, 8)),
        (
            "held out: held_out_spirals(3, 200, 21)",
            held_out_spirals(3, 200, 21),
        ),
        (
            "held out: held_out_spirals(3, 2000, 22)",
            held_out_spirals(3, 2000, 22),
        ),
        (
            "even over the disc: SpiralTask sample(2000, 23)",
            TRAINING_TASK.sample(2000, 23),
        ),
    ]
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let model = shipped();
    let mut csv = Csv::new(&["data", "points", "layers", "correct", "accuracy"]);
    for (data, set) in datasets() {
        for (layers, layer) in [
            ("f32", GraphLayer::F32),
            ("int8", GraphLayer::Int8(DotKind::Builtin)),
        ] {
            let graph = validate(&model_graph(&model, set.x.rows(), layer)?)?;
            let logits = runner_cpu::run(&graph, std::slice::from_ref(&set.x))?.remove(0);
            let acc = accuracy(&logits, &set.labels);
            let correct = (acc * set.labels.len() as f64).round() as usize;
            println!(
                "accuracy {data:<30} {layers:<5} {correct}/{}",
                set.labels.len()
            );
            csv.row(&[
                data.into(),
                set.labels.len().to_string(),
                layers.into(),
                correct.to_string(),
                format!("{acc:.4}"),
            ]);
        }
    }
    let name = args.figure_name("inference", "accuracy");
    let mut sidecar = Sidecar::new(
        &name,
        "The shipped spiral MLP's accuracy on its training points, re-noised points and \
         held-out points drawn along the arms (CPU runner; computed, not timed)",
    );
    sidecar.notes = vec![format!(
        "training used spirals(3, 200, 7); held_out_spirals draws each point's place along \
         its arm at random; SpiralTask {{ classes: 3, turns: 4/τ, noise: 0.2 }}.sample spreads \
         points evenly over the disc; quick mode: {}",
        args.quick
    )];
    sidecar.files = vec![format!("{name}.csv")]; // a table, no chart
    Figure::new(sidecar).table(&csv).write()?;
    Ok(())
}
