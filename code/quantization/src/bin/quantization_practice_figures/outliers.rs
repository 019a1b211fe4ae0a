use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
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

/// One row of the table: one way of quantizing, at one size of the loud channel.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub tokens: usize,
    pub k: usize,
    pub n: usize,
    pub outlier_factor: f32,
    pub method: String,
    pub output_sqnr_db: f64,
    pub ordinary_activation_sqnr_db: f64,
    pub int8_fraction: f64,
}

/// The chart: the product's SQNR against the loud channel's size, one line per method.
pub fn chart(rows: &[Row]) -> anyhow::Result<String> {
    let first = rows
        .first()
        .ok_or_else(|| anyhow::anyhow!("the table has no rows"))?;
    let (tokens, k, n) = (first.tokens, first.k, first.n);
    let series = (METHODS.iter())
        .map(|(_, label)| {
            let mut s = Series::new(label);
            for r in rows.iter().filter(|r| r.method == *label) {
                s.point(f64::from(r.outlier_factor), r.output_sqnr_db);
            }
            s
        })
        .collect();
    Ok(LineChart {
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
    .to_svg())
}

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
    let mut rows = Vec::new();
    for factor in FACTORS {
        let x = activations_with_outlier(tokens, k, OUTLIER_CHANNEL, factor, 21);
        for (method, label) in &METHODS {
            let e = measure(&x, &w, *method, &[OUTLIER_CHANNEL])?;
            rows.push(Row {
                tokens,
                k,
                n,
                outlier_factor: factor,
                method: (*label).into(),
                output_sqnr_db: printed(e.output_sqnr_db, 3),
                ordinary_activation_sqnr_db: printed(e.ordinary_activation_sqnr_db, 3),
                int8_fraction: printed(e.int8_fraction, 5),
            });
        }
    }
    Figure::new(
        Sidecar::new(
            &name,
            "SQNR of an int8 Linear product with one outlier input channel: per tensor, weight \
             groups, per token, SmoothQuant, outlier split",
        )
        .with_notes(vec![format!(
            "X: {tokens}×{k}, seed 21, channel {OUTLIER_CHANNEL} = factor·(1 + z/4); \
             W: {k}×{n} Gaussian, σ = 0.05, seed 22; reference: f64 product of the f32 operands"
        )])
        .with_files([format!("{name}.csv"), format!("{name}.svg")]),
    )
    .rows(&rows)?
    .chart(chart(&rows)?)
    .write()?;
    println!("outliers → {name}.csv");
    Ok(())
}
