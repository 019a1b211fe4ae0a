//! Test accuracy against sparsity for magnitude, neuron (structured) and 2:4 pruning of the
//! hidden layers, each straight after pruning and after retraining with the mask held fixed.
//! Deterministic: the seeds fix the data, the initial weights and the minibatch order.

use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use quantization::model::{
    Dataset, Mlp, Pruning, Recipe, SpiralTask, accuracy, apply_masks, hidden_masks,
    hidden_sparsity, train_masked,
};
use rayon::prelude::*;

use crate::output::figure_name;

// ANCHOR: setup
/// Three arms of two turns each, with noise: hard enough that the model needs its width.
const TASK: SpiralTask = SpiralTask {
    classes: 3,
    turns: 2.0,
    noise: 0.25,
};
const WIDTHS: [usize; 5] = [2, 64, 64, 64, 3];
const TRAIN: Recipe = Recipe {
    epochs: 300,
    batch: 32,
    rate: 3e-3,
    seed: 21,
};
/// Fine-tuning: a tenth of the training epochs at a third of the rate, masks held fixed.
const RETRAIN: Recipe = Recipe {
    epochs: 30,
    batch: 32,
    rate: 1e-3,
    seed: 22,
};
const SPARSITIES: [f64; 7] = [0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98];
// ANCHOR_END: setup

/// Seeds of the repeated runs: each sets the initial weights and the minibatch orders.
const RUNS: [u64; 5] = [3, 4, 5, 6, 7];

/// A pruned model's test accuracy before and after retraining, for one run.
struct Outcome {
    how: Pruning,
    sparsity: f64,
    pruned: f64,
    retrained: f64,
}

// ANCHOR: experiment
/// Train → prune → retrain for one seed, every scheme and sparsity pruned from the same model.
fn one_run(seed: u64, train: &Dataset, test: &Dataset, quick: bool) -> anyhow::Result<Run> {
    let scale = if quick { 10 } else { 1 };
    let mut dense = Mlp::new(&WIDTHS, seed);
    let dense_masks = hidden_masks(&dense, Pruning::Magnitude(0.0))?;
    let recipe = Recipe {
        epochs: TRAIN.epochs / scale,
        seed: TRAIN.seed + seed,
        ..TRAIN
    };
    train_masked(&mut dense, train, &recipe, &dense_masks)?;
    let retrain = Recipe {
        epochs: RETRAIN.epochs / scale,
        seed: RETRAIN.seed + seed,
        ..RETRAIN
    };
    let plans = SPARSITIES
        .iter()
        .flat_map(|&s| [Pruning::Magnitude(s), Pruning::Neurons(s)])
        .chain([Pruning::TwoFour]);
    let mut outcomes = Vec::new();
    for how in plans {
        let masks = hidden_masks(&dense, how)?;
        let pruned = apply_masks(&dense, &masks);
        let mut tuned = pruned.clone();
        train_masked(&mut tuned, train, &retrain, &masks)?;
        anyhow::ensure!(
            hidden_sparsity(&tuned) >= hidden_sparsity(&pruned),
            "retraining revived pruned weights"
        );
        outcomes.push(Outcome {
            how,
            sparsity: hidden_sparsity(&pruned),
            pruned: accuracy(&pruned.forward(&test.x), &test.labels),
            retrained: accuracy(&tuned.forward(&test.x), &test.labels),
        });
    }
    let dense_test = accuracy(&dense.forward(&test.x), &test.labels);
    let kept_share = [
        Pruning::Magnitude(0.5),
        Pruning::Neurons(0.5),
        Pruning::TwoFour,
    ]
    .map(|how| Ok(kept_share(&dense, &hidden_masks(&dense, how)?)))
    .into_iter()
    .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Run {
        dense_test,
        outcomes,
        kept_share,
    })
}
// ANCHOR_END: experiment

struct Run {
    dense_test: f64,
    outcomes: Vec<Outcome>,
    /// Σ|w| kept ÷ Σ|w| of the hidden layers, for magnitude, neurons and 2:4 at 50 %.
    kept_share: Vec<f64>,
}

/// The share of the hidden layers' total |w| that a pruning keeps: why schemes that remove the
/// same number of weights cost different amounts.
fn kept_share(model: &Mlp, masks: &[quantization::model::LayerMask]) -> f64 {
    let last = model.layers.len() - 1;
    let (mut kept, mut all) = (0.0f64, 0.0f64);
    for ((w, _), m) in model.layers[1..last].iter().zip(&masks[1..last]) {
        for (x, k) in w.data().iter().zip(&m.weight) {
            all += f64::from(x.abs());
            kept += if *k { f64::from(x.abs()) } else { 0.0 };
        }
    }
    kept / all
}

/// Median, lowest and highest of a few values.
fn summary(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    let median = if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    };
    (median, v[0], v[v.len() - 1])
}

/// Test points per class (3000 in all, seed 2).
const TEST_PER_CLASS: usize = 1000;

/// One row of the table: one scheme at one sparsity, after pruning or after retraining; the
/// median, range and each run's accuracy (a quick run leaves the later seeds' cells empty).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub scheme: String,
    pub sparsity: f64,
    pub after: String,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub seed_3: Option<f64>,
    pub seed_4: Option<f64>,
    pub seed_5: Option<f64>,
    pub seed_6: Option<f64>,
    pub seed_7: Option<f64>,
}

impl Row {
    /// The accuracies of the runs, one per seed of [`RUNS`] that ran.
    fn runs(&self) -> impl Iterator<Item = f64> {
        [
            self.seed_3,
            self.seed_4,
            self.seed_5,
            self.seed_6,
            self.seed_7,
        ]
        .into_iter()
        .flatten()
    }
}

/// The chart: median accuracy and range against sparsity, pruned and retrained, per scheme.
pub fn chart(rows: &[Row]) -> String {
    let mut series = Vec::new();
    for scheme in ["magnitude", "neurons", "2:4"] {
        for (after, label) in [("pruning", "pruned"), ("retraining", "pruned + retrained")] {
            let mut s = Series::new(&format!("{scheme}, {label}"));
            for r in rows
                .iter()
                .filter(|r| r.scheme == scheme && r.after == after)
            {
                s.point_with_spread(
                    r.sparsity * 100.0,
                    r.median * 100.0,
                    r.min * 100.0,
                    r.max * 100.0,
                );
            }
            series.push(s);
        }
    }
    LineChart {
        title: "Spiral classifier: test accuracy against sparsity of the hidden layers".into(),
        subtitle: format!(
            "2→64→64→64→3 MLP, {}-turn spirals, {} test points; median and range of {} seeds",
            TASK.turns,
            TASK.classes * TEST_PER_CLASS,
            rows.first().map_or(0, |r| r.runs().count())
        ),
        x_label: "weights pruned in the two 64×64 layers (%)".into(),
        y_label: "test accuracy (%)".into(),
        log_x: false,
        log_y: false,
        series,
        markers: vec![],
    }
    .to_svg()
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let train = TASK.sample(500, 1);
    let test = TASK.sample(TEST_PER_CLASS, 2);
    let seeds = if args.quick { &RUNS[..2] } else { &RUNS[..] };
    let runs = seeds
        .par_iter()
        .map(|&seed| one_run(seed, &train, &test, args.quick))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let dense: Vec<f64> = runs.iter().map(|r| r.dense_test).collect();
    eprintln!("pruning: dense test accuracy per run {dense:?}");

    let name = figure_name(args, "pruning_accuracy");
    let mut rows = Vec::new();
    for scheme in ["magnitude", "neurons", "2:4"] {
        for (i, o) in runs[0].outcomes.iter().enumerate() {
            if o.how.label() != scheme {
                continue;
            }
            for (after, retrained) in [("pruning", false), ("retraining", true)] {
                let accs: Vec<f64> = runs
                    .iter()
                    .map(|r| {
                        let o = &r.outcomes[i];
                        printed(if retrained { o.retrained } else { o.pruned }, 4)
                    })
                    .collect();
                let (median, low, high) = summary(accs.clone());
                let seed = |s: u64| seeds.iter().position(|&x| x == s).map(|j| accs[j]);
                rows.push(Row {
                    scheme: scheme.into(),
                    sparsity: printed(o.sparsity, 4),
                    after: after.into(),
                    median: printed(median, 4),
                    min: low,
                    max: high,
                    seed_3: seed(3),
                    seed_4: seed(4),
                    seed_5: seed(5),
                    seed_6: seed(6),
                    seed_7: seed(7),
                });
            }
        }
    }
    let (dense_median, dense_low, dense_high) = summary(dense);
    let share = |i: usize| {
        let (m, lo, hi) = summary(runs.iter().map(|r| r.kept_share[i]).collect());
        format!("median {m:.3}, range {lo:.3}–{hi:.3}")
    };
    let sidecar = Sidecar::new(
        &name,
        "Test accuracy of a spiral MLP after magnitude, neuron and 2:4 pruning of its hidden layers, without and with retraining (masks fixed)",
    )
    .with_notes(vec![
        format!("task {TASK:?}; widths {WIDTHS:?}; 1500 training points (seed 1), 3000 test points (seed 2)"),
        format!("training {TRAIN:?} (Adam, softmax cross-entropy); the run's seed sets the initial weights and is added to the recipe's seed"),
        format!("retraining after pruning {RETRAIN:?}, masks held fixed"),
        format!("dense test accuracy: median {dense_median:.4}, range {dense_low:.4}–{dense_high:.4}"),
        format!("share of the hidden layers' Σ|w| kept at 50 %: magnitude {}; neurons {}; 2:4 {}", share(0), share(1), share(2)),
        format!("quick mode: {} (a tenth of the epochs, two seeds)", args.quick),
    ]);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows))
        .write()?;
    println!("pruning: dense median {dense_median:.3} → {name}.csv");
    Ok(())
}
