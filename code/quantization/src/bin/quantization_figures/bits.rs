use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use computational_graphs::tensor::Tensor2D;
use quantization::affine::Scheme;
use quantization::fake_quant::{Granularity, fake_quantize};
use quantization::group4::Group4Weights;
use quantization::model::{Mlp, accuracy, held_out_spirals, shipped};

use crate::output::figure_name;

/// The test set: 6000 points whose places along the arms the model never saw (the set the
/// inference page checks the model on).
fn test_set() -> quantization::model::Dataset {
    held_out_spirals(3, 2000, 22)
}

/// Test accuracy with every layer's weights replaced by `f(weights)`.
fn accuracy_with(
    model: &Mlp,
    f: impl Fn(&Tensor2D) -> anyhow::Result<Tensor2D>,
) -> anyhow::Result<f64> {
    let test = test_set();
    let layers = model
        .layers
        .iter()
        .map(|(w, b)| Ok((f(w)?, b.clone())))
        .collect::<anyhow::Result<_>>()?;
    Ok(accuracy(&Mlp { layers }.forward(&test.x), &test.labels))
}

/// The share of weights (all layers) that `f` leaves nonzero: at 2 bits a symmetric scheme
/// sends each weight to 0 or ±(its scale's max), so this says how much of the layer survives.
fn nonzero_share(
    model: &Mlp,
    f: impl Fn(&Tensor2D) -> anyhow::Result<Tensor2D>,
) -> anyhow::Result<f64> {
    let (mut nonzero, mut total) = (0usize, 0usize);
    for (w, _) in &model.layers {
        let q = f(w)?;
        nonzero += q.data().iter().filter(|&&v| v != 0.0).count();
        total += q.data().len();
    }
    Ok(nonzero as f64 / total as f64)
}

/// The schemes drawn as lines: (scheme, granularity, label).
const LINES: [(Scheme, Granularity, &str); 3] = [
    (
        Scheme::Symmetric,
        Granularity::PerTensor,
        "symmetric, per tensor",
    ),
    (
        Scheme::Symmetric,
        Granularity::PerChannel,
        "symmetric, per channel",
    ),
    (
        Scheme::Asymmetric,
        Granularity::PerChannel,
        "asymmetric, per channel",
    ),
];

/// One row of the table: the model's test accuracy with its weights stored one way.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub bits: u32,
    pub scheme: String,
    pub granularity: String,
    pub test_accuracy: f64,
    pub nonzero_weights: f64,
}

impl Row {
    fn new(bits: u32, scheme: &str, granularity: &str, accuracy: f64, nonzero: f64) -> Self {
        Self {
            bits,
            scheme: scheme.into(),
            granularity: granularity.into(),
            test_accuracy: printed(accuracy, 4),
            nonzero_weights: printed(nonzero, 4),
        }
    }
}

/// The chart: accuracy against bits for each line's scheme, and f32 as a level line.
pub fn chart(rows: &[Row]) -> String {
    let mut series: Vec<Series> = LINES
        .iter()
        .map(|(scheme, gran, label)| {
            let (scheme, gran) = (format!("{scheme:?}"), format!("{gran:?}"));
            let mut s = Series::new(label);
            for r in rows
                .iter()
                .filter(|r| r.scheme == scheme && r.granularity == gran)
            {
                s.point(f64::from(r.bits), r.test_accuracy * 100.0);
            }
            s
        })
        .collect();
    let mut reference = Series::new("f32");
    for r in rows.iter().filter(|r| r.scheme == "f32") {
        reference.point(2.0, r.test_accuracy * 100.0);
        reference.point(8.0, r.test_accuracy * 100.0);
    }
    series.push(reference);
    LineChart {
        title: "Spiral classifier: test accuracy against weight bits".into(),
        subtitle: "2→64→64→3 MLP, 6000 held-out points (held_out_spirals(3, 2000, 22)); computed exactly (no timing)".into(),
        x_label: "bits per weight".into(),
        y_label: "test accuracy (%)".into(),
        log_x: false,
        log_y: false,
        series,
        markers: vec![],
    }
    .to_svg()
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let model = shipped();
    let name = figure_name(args, "accuracy_bits");
    let mut rows = Vec::new();
    let f32_acc = accuracy_with(&model, |w| Ok(w.clone()))?;
    for (scheme, gran, _) in LINES {
        for bits in [8, 6, 4, 3, 2] {
            let quantize = |w: &Tensor2D| Ok(fake_quantize(w, bits, scheme, gran)?);
            let acc = accuracy_with(&model, quantize)?;
            let nonzero = nonzero_share(&model, quantize)?;
            rows.push(Row::new(
                bits,
                &format!("{scheme:?}"),
                &format!("{gran:?}"),
                acc,
                nonzero,
            ));
        }
    }
    // Group quantization needs k to be a multiple of 8: the first layer (k = 2) stays f32.
    let group4 = |w: &Tensor2D| {
        Ok(if w.rows().is_multiple_of(8) {
            Group4Weights::quantize(w, 8)?.dequantize()
        } else {
            w.clone()
        })
    };
    let g4 = accuracy_with(&model, group4)?;
    rows.push(Row::new(
        4,
        "Symmetric",
        "Group8",
        g4,
        nonzero_share(&model, group4)?,
    ));
    let f32_nonzero = nonzero_share(&model, |w| Ok(w.clone()))?;
    rows.push(Row::new(32, "f32", "-", f32_acc, f32_nonzero));
    Figure::new(
        Sidecar::new(
            &name,
            "Test accuracy of the shipped spiral MLP with fake-quantized weights",
        )
        .with_notes(vec![format!(
            "f32 accuracy {f32_acc:.4}; 4-bit groups of 8 (layers 2 and 3) {g4:.4}"
        )]),
    )
    .rows(&rows)?
    .chart(chart(&rows))
    .write()?;
    println!("bits: f32 {f32_acc:.3}, group-4 {g4:.3} → {name}.csv");
    Ok(())
}
