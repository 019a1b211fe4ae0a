use bench_harness::digits::{printed, significant};
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use computational_graphs::tensor::Tensor2D;
use quantization::affine::Calibration;
use quantization::fake_quant::Granularity;
use quantization::model::shipped;
use quantization::noise::{Noise, gaussian, measure};

use crate::output::figure_name;

/// The ways of choosing the ranges that the figure compares.
const SETTINGS: [(Granularity, Calibration, &str); 3] = [
    (Granularity::PerTensor, Calibration::MinMax, "per tensor"),
    (Granularity::PerChannel, Calibration::MinMax, "per channel"),
    (
        Granularity::PerTensor,
        Calibration::Percentile(99.0),
        "per tensor, clipped at the 99th percentile",
    ),
];

/// The two weight matrices: the key in the table and file names, and the chart's words.
const SOURCES: [(&str, &str); 2] = [
    ("gaussian", "Gaussian weights"),
    ("spiral_hidden", "spiral MLP hidden layer"),
];

/// One row of the table: one matrix, one way of choosing ranges, one bit width.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub weights: String,
    pub rows: usize,
    pub cols: usize,
    pub granularity: String,
    pub calibration: String,
    pub bits: u32,
    pub signal_mean_sq: f64,
    pub noise_measured: f64,
    pub noise_predicted: f64,
    pub sqnr_measured_db: f64,
    pub sqnr_predicted_db: f64,
    pub clipped_fraction: f64,
}

impl Row {
    fn new(
        weights: &str,
        w: &Tensor2D,
        (granularity, how): (Granularity, Calibration),
        bits: u32,
        n: &Noise,
    ) -> Self {
        Self {
            weights: weights.into(),
            rows: w.rows(),
            cols: w.cols(),
            granularity: format!("{granularity:?}"),
            calibration: format!("{how:?}"),
            bits,
            signal_mean_sq: significant(n.signal, 7),
            noise_measured: significant(n.measured, 7),
            noise_predicted: significant(n.predicted, 7),
            sqnr_measured_db: printed(n.measured_sqnr_db(), 3),
            sqnr_predicted_db: printed(n.predicted_sqnr_db(), 3),
            clipped_fraction: printed(n.clipped, 5),
        }
    }
}

/// One chart per matrix, `(key, SVG)`: measured SQNR and step²/12 against bits for each way of
/// choosing ranges.
pub fn charts(rows: &[Row]) -> Vec<(&'static str, String)> {
    let mut charts = Vec::new();
    for (key, title) in SOURCES {
        let ours: Vec<&Row> = rows.iter().filter(|r| r.weights == key).collect();
        let Some(first) = ours.first() else { continue };
        let mut series = Vec::new();
        for (granularity, how, label) in SETTINGS {
            let (granularity, how) = (format!("{granularity:?}"), format!("{how:?}"));
            let mut measured = Series::new(&format!("{label}: measured"));
            let mut predicted = Series::new(&format!("{label}: step²/12"));
            for r in ours
                .iter()
                .filter(|r| r.granularity == granularity && r.calibration == how)
            {
                measured.point(f64::from(r.bits), r.sqnr_measured_db);
                predicted.point(f64::from(r.bits), r.sqnr_predicted_db);
            }
            series.extend([measured, predicted]);
        }
        let svg = LineChart {
            title: format!("Quantization noise of {title}: measured SQNR against step²/12"),
            subtitle: format!(
                "{}×{} weights, symmetric rounding; computed exactly (no timing)",
                first.rows, first.cols
            ),
            x_label: "bits per weight".into(),
            y_label: "SQNR (dB)".into(),
            log_x: false,
            log_y: false,
            series,
            markers: vec![],
        }
        .to_svg();
        charts.push((key, svg));
    }
    charts
}

/// SQNR measured and predicted (Δ²/12) for 2 to 8 bits, on a Gaussian matrix and on the shipped
/// spiral model's 64×64 hidden layer. Computed, not timed: every machine gives these numbers.
pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let side = if args.quick { 64 } else { 256 };
    let matrices = [
        gaussian(side, side, 0.05, 17),
        shipped().layers[1].0.clone(),
    ];
    let name = figure_name(args, "noise_sqnr");
    let mut rows = Vec::new();
    for ((key, _), w) in SOURCES.iter().zip(&matrices) {
        for (granularity, how, _) in SETTINGS {
            for bits in 2..=8 {
                let n: Noise = measure(w, bits, granularity, how)?;
                rows.push(Row::new(key, w, (granularity, how), bits, &n));
            }
        }
    }
    let mut figure = Figure::new(
        Sidecar::new(
            &name,
            "Signal-to-quantization-noise ratio of weights, measured and predicted by step²/12",
        )
        .with_notes(vec![format!(
            "Gaussian: {side}×{side}, σ = 0.05, seed 17; spiral: layer 1 of the shipped model"
        )])
        .with_files([format!("{name}.csv")]),
    )
    .rows(&rows)?;
    for (key, svg) in charts(&rows) {
        figure = figure.extra(&format!("{name}_{key}.svg"), svg);
    }
    figure.write()?;
    println!("noise → {name}.csv");
    Ok(())
}
