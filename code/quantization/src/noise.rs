//! The quantization-noise model: rounding to a grid of step Δ adds an error spread evenly over
//! [−Δ/2, Δ/2], whose variance is Δ²/12, so each extra bit halves Δ and buys 20·log10(2) ≈
//! 6.02 dB of signal-to-quantization-noise ratio (SQNR). [`measure`] quantizes a tensor with the
//! crate's [`Affine`] map and reports the measured noise beside that prediction.

use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::{Affine, Calibration, Scheme, calibrate};
use crate::fake_quant::Granularity;

/// Signal and noise power (mean squares) of one quantized tensor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// Mean of x².
    pub signal: f64,
    /// Mean of (x − Q(x))², measured.
    pub measured: f64,
    /// Mean of Δ²/12 over the elements, Δ being each element's step: the model's prediction.
    pub predicted: f64,
    /// The fraction of elements outside their map's range (saturated, not rounded).
    pub clipped: f64,
}

fn db(ratio: f64) -> f64 {
    10.0 * ratio.log10()
}

impl Noise {
    pub fn measured_sqnr_db(&self) -> f64 {
        db(self.signal / self.measured)
    }

    pub fn predicted_sqnr_db(&self) -> f64 {
        db(self.signal / self.predicted)
    }
}

// ANCHOR: measure
/// Quantizes `w` symmetrically with `bits` bits, one range per tensor or per output column,
/// each range calibrated by `how`, and compares the error with Δ²/12.
pub fn measure(
    w: &Tensor2D,
    bits: u32,
    granularity: Granularity,
    how: Calibration,
) -> Result<Noise, QuantError> {
    let (k, n) = w.shape();
    let column = |c: usize| (0..k).map(|r| w.get(r, c)).collect::<Vec<f32>>();
    let groups: Vec<Vec<f32>> = match granularity {
        Granularity::PerTensor => vec![w.data().to_vec()],
        Granularity::PerChannel => (0..n).map(column).collect(),
    };
    let (mut signal, mut measured, mut predicted, mut clipped) = (0.0, 0.0, 0.0, 0usize);
    for xs in &groups {
        let (lo, hi) = calibrate(xs, how);
        let map = Affine::fit(lo, hi, bits, Scheme::Symmetric)?;
        let step = f64::from(map.scale);
        for &x in xs {
            let q = map.quantize(x);
            let e = f64::from(x - map.dequantize(q));
            signal += f64::from(x) * f64::from(x);
            measured += e * e;
            predicted += step * step / 12.0;
            // A value beyond half a step past the end level was saturated, not rounded.
            clipped += usize::from(e.abs() > step / 2.0 + 1e-9 * step);
        }
    }
    let count = (k * n).max(1) as f64;
    Ok(Noise {
        signal: signal / count,
        measured: measured / count,
        predicted: predicted / count,
        clipped: clipped as f64 / count,
    })
}
// ANCHOR_END: measure

/// A k×n matrix of independent N(0, σ²) values (Box–Muller), the textbook stand-in for weights.
pub fn gaussian(k: usize, n: usize, sigma: f32, seed: u64) -> Tensor2D {
    let mut rng = SplitMix64::new(seed);
    let data = (0..k * n)
        .map(|_| {
            // 1 − u lies in (0, 1], so the logarithm is finite.
            let (u, v) = (1.0 - rng.next_f32(), rng.next_f32());
            sigma * (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
        })
        .collect();
    Tensor2D::new(k, n, data).expect("k·n values")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_values_at_eight_bits_match_the_model_within_a_tenth_of_a_db() {
        let mut rng = SplitMix64::new(3);
        let data: Vec<f32> = (0..64 * 64).map(|_| rng.symmetric(1.0)).collect();
        let w = Tensor2D::new(64, 64, data).unwrap();
        let noise = measure(&w, 8, Granularity::PerTensor, Calibration::MinMax).unwrap();
        let gap = noise.measured_sqnr_db() - noise.predicted_sqnr_db();
        assert!(gap.abs() < 0.1, "gap {gap} dB");
        assert_eq!(noise.clipped, 0.0);
    }

    #[test]
    fn each_bit_adds_about_six_db_on_gaussian_weights() {
        let w = gaussian(128, 128, 0.05, 7);
        let sqnr = |bits| {
            measure(&w, bits, Granularity::PerChannel, Calibration::MinMax)
                .unwrap()
                .measured_sqnr_db()
        };
        let per_bit = (sqnr(8) - sqnr(5)) / 3.0;
        assert!((per_bit - 6.02).abs() < 0.3, "{per_bit} dB per bit");
    }

    #[test]
    fn per_channel_beats_per_tensor_when_columns_differ_in_scale() {
        let mut w = gaussian(64, 8, 1.0, 9);
        for r in 0..64 {
            w.data_mut()[r * 8] *= 20.0; // one loud column sets the shared scale
        }
        let at = |g| measure(&w, 4, g, Calibration::MinMax).unwrap();
        let (t, c) = (at(Granularity::PerTensor), at(Granularity::PerChannel));
        assert!(c.measured_sqnr_db() > t.measured_sqnr_db() + 3.0);
    }

    #[test]
    fn clipping_puts_a_ceiling_on_the_sqnr() {
        let w = gaussian(128, 128, 1.0, 5);
        let clip = Calibration::Percentile(99.0);
        let at = |bits| measure(&w, bits, Granularity::PerTensor, clip).unwrap();
        let (six, eight) = (at(6), at(8));
        assert!(eight.clipped > 0.005, "about 1 % saturate");
        // The model keeps promising 6 dB per bit; the clipped tails do not shrink.
        assert!(eight.predicted_sqnr_db() - six.predicted_sqnr_db() > 11.0);
        assert!(eight.measured_sqnr_db() - six.measured_sqnr_db() < 6.0);
    }

    #[test]
    fn gaussian_values_have_the_asked_spread() {
        let w = gaussian(100, 100, 2.0, 1);
        let mean_sq = w.data().iter().map(|x| x * x).sum::<f32>() / 10_000.0;
        assert!(
            (mean_sq.sqrt() - 2.0).abs() < 0.05,
            "σ ≈ {}",
            mean_sq.sqrt()
        );
    }
}
