use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use quantization::noise::gaussian;
use quantization::outliers::{Method, activations_with_outlier, measure};

use crate::output::figure_name;

/// The ways of quantizing the layer that the figure compares.
const METHODS: [(Method, &str); 5] = [
    (Method::PerTensor, "int8 per tensor"),
    (Method::WeightGroups(32), "int8, weights in groups of 32"),
    (Method::PerToken, "int8, one scale per token"),
    (Method::SmoothQuant(0.5), "SmoothQuant α = 0.5"),
    (
        Method::OutlierSplit(6.0),
        "outlier channels in f32 (|x| ≥ 6)",
    ),
];
/// How much larger the outlier channel is than the others.
const FACTORS: [f32; 6] = [1.0, 3.0, 10.0, 30.0, 50.0, 100.0];
const OUTLIER_CHANNEL: usize = 5;

/// The int8 error of `X · W` with one loud input channel, each way, against the channel's size.
/// Computed, not timed: every machine gives these numbers.
pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let (tokens, k, n) = if args.quick {
        (32, 128, 32)
    } else {
        (128, 1024, 256)
    };
    let w = gaussian(k, n, 0.05, 22);
    let name = figure_name(args, "activation_outliers");
    let mut csv = Csv::new(&[
        "tokens",
        "k",
        "n",
        "outlier_factor",
        "method",
        "output_sqnr_db",
        "ordinary_activation_sqnr_db",
        "int8_fraction",
    ]);
    let mut series: Vec<Series> = METHODS.iter().map(|(_, l)| Series::new(l)).collect();
    for factor in FACTORS {
        let x = activations_with_outlier(tokens, k, OUTLIER_CHANNEL, factor, 21);
        for ((method, label), s) in METHODS.iter().zip(&mut series) {
            let e = measure(&x, &w, *method, &[OUTLIER_CHANNEL])?;
            csv.row(&[
                tokens.to_string(),
                k.to_string(),
                n.to_string(),
                factor.to_string(),
                label.to_string(),
                format!("{:.3}", e.output_sqnr_db),
                format!("{:.3}", e.ordinary_activation_sqnr_db),
                format!("{:.5}", e.int8_fraction),
            ]);
            s.point(f64::from(factor), e.output_sqnr_db);
        }
    }
    let dir = figures_dir();
    LineChart {
        title: "One loud input channel: int8 error of X·W, five ways".into(),
        subtitle: format!(
            "{tokens}×{k} activations, N(0, 1) except one channel ≈ factor; {k}×{n} weights; \
             computed exactly (no timing)"
        ),
        x_label: "outlier channel's size (× the others)".into(),
        y_label: "SQNR of the product (dB)".into(),
        log_x: true,
        log_y: false,
        series,
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    csv.write(&dir.join(format!("{name}.csv")))?;
    Sidecar::new(
        &name,
        "SQNR of an int8 Linear product with one outlier input channel: per tensor, weight groups, \
         per token, SmoothQuant, outlier split",
    )
    .with_notes(vec![format!(
        "X: {tokens}×{k}, seed 21, channel {OUTLIER_CHANNEL} = factor·(1 + z/4); \
             W: {k}×{n} Gaussian, σ = 0.05, seed 22; reference: f64 product of the f32 operands"
    )])
    .with_files([format!("{name}.csv"), format!("{name}.svg")])
    .write(&dir.join(format!("{name}.json")))?;
    println!("outliers → {name}.csv");
    Ok(())
}
