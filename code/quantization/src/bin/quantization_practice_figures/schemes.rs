//! Test accuracy of a trained spiral MLP with its weights stored by each scheme: post-training
//! quantization, no retraining. Deterministic: seeds fix the data, the initial weights and the
//! minibatch order.

use bench_harness::digits::printed;
use bench_harness::{BarChart, Figure, FigureArgs, Sidecar, rows_to_csv};
use quantization::affine::Calibration;
use quantization::fake_quant::Granularity;
use quantization::gptq::gptq_model;
use quantization::model::{LayerMask, Mlp, Recipe, SpiralTask, accuracy, train_masked};
use quantization::noise::measure;
use quantization::qat::train_quantization_aware;
use quantization::weight_schemes::{WeightScheme, model_bytes_per_weight, quantize_model};
use rayon::prelude::*;

use crate::output::figure_name;

// ANCHOR: setup
/// Three arms of three turns each: a wide model needs most of its weights to separate them.
const TASK: SpiralTask = SpiralTask {
    classes: 3,
    turns: 3.0,
    noise: 0.15,
};
const WIDTHS: [usize; 4] = [2, 256, 256, 3];
const TRAIN: Recipe = Recipe {
    epochs: 200,
    batch: 32,
    rate: 2e-3,
    seed: 40,
};
const SCHEMES: [WeightScheme; 7] = [
    WeightScheme::F32,
    WeightScheme::PerTensor(8),
    WeightScheme::PerChannel(8),
    WeightScheme::PerTensor(4),
    WeightScheme::PerChannel(4),
    WeightScheme::Groups4(64),
    WeightScheme::Groups4(32),
];
/// Quantization-aware fine-tuning of the trained model: a tenth of the epochs, a quarter of the
/// rate. The same fine-tuning in plain f32, quantized afterwards, is the control.
const FINE_TUNE: Recipe = Recipe {
    epochs: 20,
    batch: 32,
    rate: 5e-4,
    seed: 60,
};
/// The scheme that QAT is tried on.
const QAT_SCHEME: WeightScheme = WeightScheme::PerTensor(4);
/// GPTQ at 4 bits, calibrated on the training inputs, with these scales.
const GPTQ_GRANULARITIES: [Granularity; 2] = [Granularity::PerTensor, Granularity::PerChannel];

// ANCHOR_END: setup

fn granularity_label(g: Granularity) -> &'static str {
    match g {
        Granularity::PerTensor => "per tensor",
        Granularity::PerChannel => "per channel",
    }
}

/// The plain scheme whose storage GPTQ's output has.
fn gptq_scheme(g: Granularity) -> WeightScheme {
    match g {
        Granularity::PerTensor => WeightScheme::PerTensor(4),
        Granularity::PerChannel => WeightScheme::PerChannel(4),
    }
}

/// Seeds of the repeated runs: each sets the initial weights and the minibatch order.
const RUNS: [u64; 3] = [1, 2, 3];

/// What was done to the weights and its bytes per weight.
struct Stored {
    label: String,
    bytes: f64,
}

/// The rows' labels and sizes, in the order `one_run` returns accuracies.
fn stored() -> Vec<Stored> {
    let shape = Mlp::new(&WIDTHS, 0);
    let qat_bytes = model_bytes_per_weight(&shape, QAT_SCHEME);
    let mut rows: Vec<Stored> = (SCHEMES.iter())
        .map(|&s| Stored {
            label: s.to_string(),
            bytes: model_bytes_per_weight(&shape, s),
        })
        .collect();
    for g in GPTQ_GRANULARITIES {
        rows.push(Stored {
            label: format!("4-bit {}, GPTQ", granularity_label(g)),
            bytes: model_bytes_per_weight(&shape, gptq_scheme(g)),
        });
    }
    rows.push(Stored {
        label: format!("{QAT_SCHEME}, f32 fine-tune then PTQ"),
        bytes: qat_bytes,
    });
    rows.push(Stored {
        label: format!("{QAT_SCHEME}, QAT"),
        bytes: qat_bytes,
    });
    rows
}

// ANCHOR: experiment
/// Train one model, then: every scheme post-training (PTQ); GPTQ; fine-tuning in f32 followed
/// by PTQ (the control); quantization-aware fine-tuning (QAT). Test accuracies in `rows()` order,
/// and each layer's weight ranges.
fn one_run(seed: u64, quick: bool) -> anyhow::Result<(Vec<f64>, Vec<Range>)> {
    let (train, test) = (TASK.sample(700, 100 + seed), TASK.sample(1000, 200));
    let mut model = Mlp::new(&WIDTHS, seed);
    let masks: Vec<LayerMask> = (model.layers.iter())
        .map(|(w, _)| LayerMask::dense(w.rows(), w.cols()))
        .collect();
    let shorten = |r: Recipe| Recipe {
        epochs: if quick { r.epochs / 10 } else { r.epochs },
        seed: r.seed + seed,
        ..r
    };
    train_masked(&mut model, &train, &shorten(TRAIN), &masks)?;
    let test_acc = |m: &Mlp, s: WeightScheme| -> anyhow::Result<f64> {
        Ok(accuracy(
            &quantize_model(m, s)?.forward(&test.x),
            &test.labels,
        ))
    };
    let mut accs = (SCHEMES.iter())
        .map(|&s| test_acc(&model, s))
        .collect::<anyhow::Result<Vec<_>>>()?;
    for g in GPTQ_GRANULARITIES {
        let q = gptq_model(&model, &train.x, 4, g)?;
        accs.push(accuracy(&q.forward(&test.x), &test.labels));
    }
    let mut control = model.clone();
    train_masked(&mut control, &train, &shorten(FINE_TUNE), &masks)?;
    accs.push(test_acc(&control, QAT_SCHEME)?);
    let mut qat = model.clone();
    train_quantization_aware(&mut qat, &train, &shorten(FINE_TUNE), QAT_SCHEME)?;
    accs.push(test_acc(&qat, QAT_SCHEME)?);
    Ok((accs, ranges(seed, &model)?))
}
// ANCHOR_END: experiment

/// How unequal one layer's output columns are: the spread that per-tensor scales pay for.
struct Range {
    seed: u64,
    layer: usize,
    rows: usize,
    cols: usize,
    tensor_max: f32,
    median_column_max: f32,
    smallest_column_max: f32,
    /// 99 % of the layer's |w| lie below this.
    p99: f32,
    /// SQNR of the layer at 4 bits with one scale, and with one per column.
    sqnr4_tensor_db: f64,
    sqnr4_channel_db: f64,
}

fn ranges(seed: u64, model: &Mlp) -> anyhow::Result<Vec<Range>> {
    (model.layers.iter().enumerate())
        .map(|(layer, (w, _))| {
            let sqnr4 = |g| -> anyhow::Result<f64> {
                Ok(measure(w, 4, g, Calibration::MinMax)?.measured_sqnr_db())
            };
            let (k, n) = w.shape();
            let mut col_max: Vec<f32> = (0..n)
                .map(|c| (0..k).fold(0.0f32, |m, r| m.max(w.get(r, c).abs())))
                .collect();
            col_max.sort_by(f32::total_cmp);
            let mut mags: Vec<f32> = w.data().iter().map(|x| x.abs()).collect();
            mags.sort_by(f32::total_cmp);
            let p99 = mags[(mags.len() - 1) * 99 / 100];
            Ok(Range {
                seed,
                layer,
                rows: k,
                cols: n,
                tensor_max: col_max[n - 1],
                median_column_max: col_max[n / 2],
                smallest_column_max: col_max[0],
                p99,
                sqnr4_tensor_db: sqnr4(Granularity::PerTensor)?,
                sqnr4_channel_db: sqnr4(Granularity::PerChannel)?,
            })
        })
        .collect()
}

/// One row of the table: one scheme's test accuracy (%) in one seed's run.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub scheme: String,
    pub bytes_per_weight: f64,
    pub seed: u64,
    pub test_accuracy: f64,
}

/// One row of the second table: how unequal one layer's columns are in one seed's model.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct RangeRow {
    seed: u64,
    layer: usize,
    rows: usize,
    cols: usize,
    tensor_max_abs: f64,
    median_column_max_abs: f64,
    smallest_column_max_abs: f64,
    p99_abs: f64,
    sqnr_4bit_per_tensor_db: f64,
    sqnr_4bit_per_channel_db: f64,
}

impl From<&Range> for RangeRow {
    fn from(r: &Range) -> Self {
        let abs = |x: f32| printed(f64::from(x), 4);
        Self {
            seed: r.seed,
            layer: r.layer,
            rows: r.rows,
            cols: r.cols,
            tensor_max_abs: abs(r.tensor_max),
            median_column_max_abs: abs(r.median_column_max),
            smallest_column_max_abs: abs(r.smallest_column_max),
            p99_abs: abs(r.p99),
            sqnr_4bit_per_tensor_db: printed(r.sqnr4_tensor_db, 2),
            sqnr_4bit_per_channel_db: printed(r.sqnr4_channel_db, 2),
        }
    }
}

/// The chart: one bar per scheme (in the table's order), the mean over seeds with whiskers from
/// the lowest to the highest.
pub fn chart(rows: &[Row]) -> String {
    let mut schemes: Vec<&str> = Vec::new();
    for r in rows {
        if !schemes.contains(&r.scheme.as_str()) {
            schemes.push(&r.scheme);
        }
    }
    let seeds = rows.iter().filter(|r| r.scheme == schemes[0]).count();
    let bars = (schemes.iter())
        .map(|&scheme| {
            let ours: Vec<&Row> = rows.iter().filter(|r| r.scheme == scheme).collect();
            let accs: Vec<f64> = ours.iter().map(|r| r.test_accuracy).collect();
            let mean = accs.iter().sum::<f64>() / accs.len() as f64;
            let (lo, hi) =
                (accs.iter()).fold((f64::MAX, f64::MIN), |(l, h), &a| (l.min(a), h.max(a)));
            (
                format!("{scheme} ({:.2} B/w)", ours[0].bytes_per_weight),
                mean,
                Some((lo, hi)),
            )
        })
        .collect();
    BarChart {
        title: "Spiral MLP: test accuracy with weights quantized after training".into(),
        subtitle: format!(
            "2→256→256→3, {seeds} seeds (bar: mean, whiskers: lowest and highest), 3000 test points; B/w: bytes per weight"
        ),
        y_label: "test accuracy (%)".into(),
        log_y: false,
        bars,
    }
    .to_svg()
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let runs = if args.quick { &RUNS[..1] } else { &RUNS[..] };
    let results = runs
        .par_iter()
        .map(|&seed| one_run(seed, args.quick))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let name = figure_name(args, "weight_schemes");
    let mut rows = Vec::new();
    for (i, stored) in stored().iter().enumerate() {
        let accs: Vec<f64> = results.iter().map(|(r, _)| r[i] * 100.0).collect();
        for (&seed, acc) in runs.iter().zip(&accs) {
            rows.push(Row {
                scheme: stored.label.clone(),
                bytes_per_weight: printed(stored.bytes, 4),
                seed,
                test_accuracy: printed(*acc, 2),
            });
        }
        println!(
            "{:>40}: {:.3} B/weight, accuracy {accs:.2?}",
            stored.label, stored.bytes
        );
    }
    let ranges: Vec<RangeRow> = results
        .iter()
        .flat_map(|(_, r)| r)
        .map(RangeRow::from)
        .collect();
    let ranges_file = format!("{name}_ranges.csv");
    Figure::new(
        Sidecar::new(
            &name,
            "Post-training weight quantization of a spiral MLP trained here, scheme by scheme",
        )
        .with_notes(vec![format!(
            "task {TASK:?}; widths {WIDTHS:?}; recipe {TRAIN:?}; seeds {runs:?}"
        )])
        .with_files([format!("{name}.csv")]),
    )
    .rows(&rows)?
    .extra(&ranges_file, rows_to_csv(&ranges)?)
    .extra(&format!("{name}.svg"), chart(&rows))
    .write()?;
    Ok(())
}
