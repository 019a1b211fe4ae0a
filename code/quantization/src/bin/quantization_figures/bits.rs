use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
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

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let model = shipped();
    let name = figure_name(args, "accuracy_bits");
    let mut csv = Csv::new(&[
        "bits",
        "scheme",
        "granularity",
        "test_accuracy",
        "nonzero_weights",
    ]);
    let f32_acc = accuracy_with(&model, |w| Ok(w.clone()))?;
    let mut series = Vec::new();
    for (scheme, gran, label) in [
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
    ] {
        let mut s = Series::new(label);
        for bits in [8, 6, 4, 3, 2] {
            let quantize = |w: &Tensor2D| Ok(fake_quantize(w, bits, scheme, gran)?);
            let acc = accuracy_with(&model, quantize)?;
            let nonzero = nonzero_share(&model, quantize)?;
            csv.row(&[
                bits.to_string(),
                format!("{scheme:?}"),
                format!("{gran:?}"),
                format!("{acc:.4}"),
                format!("{nonzero:.4}"),
            ]);
            s.point(f64::from(bits), acc * 100.0);
        }
        series.push(s);
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
    csv.row(&[
        "4".into(),
        "Symmetric".into(),
        "Group8".into(),
        format!("{g4:.4}"),
        format!("{:.4}", nonzero_share(&model, group4)?),
    ]);
    csv.row(&[
        "32".into(),
        "f32".into(),
        "-".into(),
        format!("{f32_acc:.4}"),
        format!("{:.4}", nonzero_share(&model, |w| Ok(w.clone()))?),
    ]);
    let mut reference = Series::new("f32");
    reference.point(2.0, f32_acc * 100.0);
    reference.point(8.0, f32_acc * 100.0);
    series.push(reference);
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
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
    .write(&dir.join(format!("{name}.svg")))?;
    Sidecar::new(
        &name,
        "Test accuracy of the shipped spiral MLP with fake-quantized weights",
    )
    .with_notes(vec![format!(
        "f32 accuracy {f32_acc:.4}; 4-bit groups of 8 (layers 2 and 3) {g4:.4}"
    )])
    .write(&dir.join(format!("{name}.json")))?;
    println!("bits: f32 {f32_acc:.3}, group-4 {g4:.3} → {name}.csv");
    Ok(())
}
