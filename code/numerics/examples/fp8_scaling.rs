//! Prints the numbers of the floats page's sections on FP8 scaling and stochastic rounding:
//! computed, the same on every machine.
//!
//! `cargo run --release -p numerics --example fp8_scaling`

use numerics::floats::Format;
use numerics::floats::scaling::{ScaledTensor, round_stochastic, uniforms};

fn main() {
    let mut u = uniforms(3);
    let weights: Vec<f32> = (0..4096).map(|_| (u() as f32 * 2.0 - 1.0) * 0.01).collect();
    let rms = |got: &[f32]| {
        let (mut err, mut sig) = (0.0f64, 0.0f64);
        for (&w, &g) in weights.iter().zip(got) {
            err += f64::from(g - w).powi(2);
            sig += f64::from(w).powi(2);
        }
        (err / sig).sqrt()
    };
    println!("4096 weights uniform in [-0.01, 0.01): relative RMS error");
    for format in [Format::E4M3, Format::E5M2] {
        let plain: Vec<f32> = weights
            .iter()
            .map(|&w| format.round(f64::from(w)) as f32)
            .collect();
        let scaled = ScaledTensor::quantize(&weights, format);
        println!(
            "  {:<9} no scale {:.1e}, per-tensor scale {:.1e} (scale {:.2e})",
            format.name,
            rms(&plain),
            rms(&scaled.dequantize()),
            scaled.scale
        );
    }

    println!("A bf16 weight of 1.0 plus 10 000 updates of 0.001 (exact 11), seeds 1 to 20:");
    let mut nearest = 1.0f64;
    for _ in 0..10_000 {
        nearest = Format::BF16.round(nearest + 1e-3);
    }
    // One run of stochastic rounding is one random walk: run twenty to see the spread.
    let finals: Vec<f64> = (1..=20)
        .map(|seed| {
            let mut u = uniforms(seed);
            let mut w = 1.0f64;
            for _ in 0..10_000 {
                w = round_stochastic(&Format::BF16, w + 1e-3, u());
            }
            w
        })
        .collect();
    let mean = finals.iter().sum::<f64>() / finals.len() as f64;
    let sd =
        (finals.iter().map(|w| (w - mean).powi(2)).sum::<f64>() / (finals.len() - 1) as f64).sqrt();
    let (lo, hi) = finals
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &w| {
            (lo.min(w), hi.max(w))
        });
    println!("  round to nearest {nearest}");
    println!(
        "  stochastic rounding: mean {mean:.3}, standard deviation {sd:.3}, from {lo} to {hi}"
    );
}
