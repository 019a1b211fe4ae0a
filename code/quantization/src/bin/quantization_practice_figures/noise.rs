use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
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

/// SQNR measured and predicted (Δ²/12) for 2 to 8 bits, on a Gaussian matrix and on the shipped
/// spiral model's 64×64 hidden layer. Computed, not timed: every machine gives these numbers.
pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let side = if args.quick { 64 } else { 256 };
    let sources: [(&str, &str, Tensor2D); 2] = [
        (
            "gaussian",
            "Gaussian weights",
            gaussian(side, side, 0.05, 17),
        ),
        (
            "spiral_hidden",
            "spiral MLP hidden layer",
            shipped().layers[1].0.clone(),
        ),
    ];
    let name = figure_name(args, "noise_sqnr");
    let mut csv = Csv::new(&[
        "weights",
        "rows",
        "cols",
        "granularity",
        "calibration",
        "bits",
        "signal_mean_sq",
        "noise_measured",
        "noise_predicted",
        "sqnr_measured_db",
        "sqnr_predicted_db",
        "clipped_fraction",
    ]);
    let dir = figures_dir();
    for (key, title, w) in &sources {
        let mut series = Vec::new();
        for (granularity, how, label) in SETTINGS {
            let mut measured = Series::new(&format!("{label}: measured"));
            let mut predicted = Series::new(&format!("{label}: step²/12"));
            for bits in 2..=8 {
                let n: Noise = measure(w, bits, granularity, how)?;
                csv.row(&[
                    key.to_string(),
                    w.rows().to_string(),
                    w.cols().to_string(),
                    format!("{granularity:?}"),
                    format!("{how:?}"),
                    bits.to_string(),
                    format!("{:.6e}", n.signal),
                    format!("{:.6e}", n.measured),
                    format!("{:.6e}", n.predicted),
                    format!("{:.3}", n.measured_sqnr_db()),
                    format!("{:.3}", n.predicted_sqnr_db()),
                    format!("{:.5}", n.clipped),
                ]);
                measured.point(f64::from(bits), n.measured_sqnr_db());
                predicted.point(f64::from(bits), n.predicted_sqnr_db());
            }
            series.extend([measured, predicted]);
        }
        LineChart {
            title: format!("Quantization noise of {title}: measured SQNR against step²/12"),
            subtitle: format!(
                "{}×{} weights, symmetric rounding; computed exactly (no timing)",
                w.rows(),
                w.cols()
            ),
            x_label: "bits per weight".into(),
            y_label: "SQNR (dB)".into(),
            log_x: false,
            log_y: false,
            series,
            markers: vec![],
        }
        .write(&dir.join(format!("{name}_{key}.svg")))?;
    }
    csv.write(&dir.join(format!("{name}.csv")))?;
    let files: Vec<String> = std::iter::once(format!("{name}.csv"))
        .chain(
            sources
                .iter()
                .map(|(key, _, _)| format!("{name}_{key}.svg")),
        )
        .collect();
    Sidecar::new(
        &name,
        "Signal-to-quantization-noise ratio of weights, measured and predicted by step²/12",
    )
    .with_notes(vec![format!(
        "Gaussian: {side}×{side}, σ = 0.05, seed 17; spiral: layer 1 of the shipped model"
    )])
    .with_files(files)
    .write(&dir.join(format!("{name}.json")))?;
    println!("noise → {name}.csv");
    Ok(())
}
