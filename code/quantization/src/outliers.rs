//! Activation outliers in an int8 Linear layer `Y = X · W` (tokens × k inputs, k × n weights).
//!
//! Large language models have a few input channels whose activations are tens of times larger
//! than the rest, in every token. One int8 scale for the whole activation tensor must cover
//! them, so the ordinary channels fall onto a handful of levels. This module quantizes both
//! operands with symmetric int8 ranges, in the ways the page compares, and measures the error of
//! the product against the f64 product of the unquantized operands.

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::{Affine, Scheme};
use crate::noise::gaussian;

/// How the two operands are quantized (every range symmetric, 8 bits).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// One scale for X, one for W.
    PerTensor,
    /// One scale for X; W in groups of `usize` consecutive inputs, one scale per group and
    /// output column: the weight-side fix, which does not touch the activations.
    WeightGroups(usize),
    /// One scale per token (row of X), one for W.
    PerToken,
    /// SmoothQuant: divide input channel j of X by s_j = max|X_j|^α / max|W_j|^(1−α) and
    /// multiply row j of W by it (the product is unchanged), then one scale each.
    SmoothQuant(f32),
    /// LLM.int8()-style: input channels whose largest |x| reaches the threshold stay in floating
    /// point (with their rows of W); the rest is quantized with one scale each.
    OutlierSplit(f32),
}

/// `tokens × k` activations, N(0, 1), except input channel `channel`, which is about `factor`
/// in every token: `factor · (1 + z/4)` with z ~ N(0, 1). A channel that is large in only a few
/// tokens would be a different problem (per-token scales would then help).
pub fn activations_with_outlier(
    tokens: usize,
    k: usize,
    channel: usize,
    factor: f32,
    seed: u64,
) -> Tensor2D {
    let mut x = gaussian(tokens, k, 1.0, seed);
    for t in 0..tokens {
        let z = &mut x.data_mut()[t * k + channel];
        *z = factor * (1.0 + 0.25 * *z);
    }
    x
}

/// Each value snapped to its int8 level, one range for all of `xs`.
fn snap(xs: &mut [f32]) -> Result<(), QuantError> {
    let m = xs.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let map = Affine::fit(-m, m, 8, Scheme::Symmetric)?;
    xs.iter_mut()
        .for_each(|x| *x = map.dequantize(map.quantize(*x)));
    Ok(())
}

/// `w` (k × n) with each column's runs of `group` inputs snapped with their own range.
fn snap_groups(w: &Tensor2D, group: usize) -> Result<Tensor2D, QuantError> {
    let (k, n) = w.shape();
    let mut out = w.clone();
    for c in 0..n {
        for start in (0..k).step_by(group.max(1)) {
            let rows = start..(start + group.max(1)).min(k);
            let mut xs: Vec<f32> = rows.clone().map(|r| w.get(r, c)).collect();
            snap(&mut xs)?;
            rows.zip(xs)
                .for_each(|(r, v)| out.data_mut()[r * n + c] = v);
        }
    }
    Ok(out)
}

/// `a · b` accumulated in f64.
fn product(a: &Tensor2D, b: &Tensor2D) -> Vec<f64> {
    let ((m, k), n) = (a.shape(), b.cols());
    let mut y = vec![0.0f64; m * n];
    for i in 0..m {
        for p in 0..k {
            let a_ip = f64::from(a.get(i, p));
            for j in 0..n {
                y[i * n + j] += a_ip * f64::from(b.get(p, j));
            }
        }
    }
    y
}

/// Largest |value| of each input channel: columns of X, rows of W.
fn channel_max(t: &Tensor2D, of_columns: bool) -> Vec<f32> {
    let (r, c) = t.shape();
    let (outer, inner) = if of_columns { (c, r) } else { (r, c) };
    (0..outer)
        .map(|o| {
            (0..inner)
                .map(|i| if of_columns { t.get(i, o) } else { t.get(o, i) })
                .fold(0.0f32, |m, v| m.max(v.abs()))
        })
        .collect()
}

/// The error of one way of computing `X · W` in int8.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutlierError {
    /// SQNR of the product Y, in dB.
    pub output_sqnr_db: f64,
    /// SQNR of the activations of the ordinary channels (outliers left out), in dB, as the
    /// product sees them (SmoothQuant's scaling undone).
    pub ordinary_activation_sqnr_db: f64,
    /// The fraction of the multiply-adds done in int8.
    pub int8_fraction: f64,
}

fn sqnr_db(want: &[f64], got: &[f64]) -> f64 {
    let signal: f64 = want.iter().map(|v| v * v).sum();
    let noise: f64 = want.iter().zip(got).map(|(a, b)| (a - b) * (a - b)).sum();
    10.0 * (signal / noise).log10()
}

/// Quantizes X (tokens × k) and W (k × n) by `method` and measures the product's error.
/// `outliers` lists the input channels the ordinary-activation SQNR leaves out.
pub fn measure(
    x: &Tensor2D,
    w: &Tensor2D,
    method: Method,
    outliers: &[usize],
) -> Result<OutlierError, QuantError> {
    let ((tokens, k), n) = (x.shape(), w.cols());
    // ANCHOR: smooth_and_split
    // Per input channel: a factor that divides X's column and multiplies W's row, and whether
    // the channel stays in floating point.
    let mut scale = vec![1.0f32; k];
    let mut keep_float = vec![false; k];
    match method {
        Method::SmoothQuant(alpha) => {
            let (mx, mw) = (channel_max(x, true), channel_max(w, false));
            for j in 0..k {
                if mx[j] > 0.0 && mw[j] > 0.0 {
                    scale[j] = mx[j].powf(alpha) / mw[j].powf(1.0 - alpha);
                }
            }
        }
        Method::OutlierSplit(threshold) => {
            let mx = channel_max(x, true);
            (0..k).for_each(|j| keep_float[j] = mx[j] >= threshold);
        }
        _ => {}
    }
    // ANCHOR_END: smooth_and_split
    let (mut xs, mut ws) = (x.clone(), w.clone());
    (0..tokens * k).for_each(|i| xs.data_mut()[i] /= scale[i % k]);
    (0..k * n).for_each(|i| ws.data_mut()[i] *= scale[i / n]);
    // Quantize only what stays in int8: the float channels are taken out, then put back.
    let int8_x: Vec<usize> = (0..tokens * k).filter(|&i| !keep_float[i % k]).collect();
    let int8_w: Vec<usize> = (0..k * n).filter(|&i| !keep_float[i / n]).collect();
    let mut qx: Vec<f32> = int8_x.iter().map(|&i| xs.data()[i]).collect();
    let mut qw: Vec<f32> = int8_w.iter().map(|&i| ws.data()[i]).collect();
    match method {
        Method::PerToken => qx.chunks_mut(k).try_for_each(snap)?,
        _ => snap(&mut qx)?,
    }
    match method {
        Method::WeightGroups(g) => ws = snap_groups(&ws, g)?,
        _ => snap(&mut qw)?,
    }
    int8_x
        .iter()
        .zip(qx)
        .for_each(|(&i, v)| xs.data_mut()[i] = v);
    if !matches!(method, Method::WeightGroups(_)) {
        int8_w
            .iter()
            .zip(qw)
            .for_each(|(&i, v)| ws.data_mut()[i] = v);
    }
    let ordinary: Vec<usize> = (0..tokens * k)
        .filter(|i| !outliers.contains(&(i % k)))
        .collect();
    let seen = |i: usize| f64::from(xs.data()[i]) * f64::from(scale[i % k]);
    let want_x: Vec<f64> = ordinary.iter().map(|&i| f64::from(x.data()[i])).collect();
    let got_x: Vec<f64> = ordinary.iter().map(|&i| seen(i)).collect();
    Ok(OutlierError {
        output_sqnr_db: sqnr_db(&product(x, w), &product(&xs, &ws)),
        ordinary_activation_sqnr_db: sqnr_db(&want_x, &got_x),
        int8_fraction: keep_float.iter().filter(|f| !**f).count() as f64 / k.max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: usize = 256;

    fn case(factor: f32) -> (Tensor2D, Tensor2D) {
        (
            activations_with_outlier(64, K, 5, factor, 1),
            gaussian(K, 32, 0.05, 2),
        )
    }

    fn db(factor: f32, method: Method) -> f64 {
        let (x, w) = case(factor);
        measure(&x, &w, method, &[5]).unwrap().output_sqnr_db
    }

    #[test]
    fn one_loud_channel_costs_the_per_tensor_product_over_twelve_db() {
        let (clean, loud) = (db(1.0, Method::PerTensor), db(50.0, Method::PerTensor));
        assert!(clean > 35.0, "{clean} dB without an outlier");
        assert!(clean - loud > 12.0, "{clean} vs {loud} dB");
    }

    #[test]
    fn weight_groups_do_not_help_and_token_scales_help_little() {
        let plain = db(50.0, Method::PerTensor);
        let groups = db(50.0, Method::WeightGroups(32));
        assert!((groups - plain).abs() < 0.5, "{groups} vs {plain} dB");
        // Every token has the outlier: its own scale is set by it too.
        let token = db(50.0, Method::PerToken);
        assert!(token - plain < 6.0, "{token} vs {plain} dB");
    }

    #[test]
    fn smoothing_and_splitting_recover_the_loss() {
        let plain = db(50.0, Method::PerTensor);
        assert!(db(50.0, Method::SmoothQuant(0.5)) > plain + 10.0);
        // The loud channel, now exact, carries most of the output: better than no outlier.
        let split = db(50.0, Method::OutlierSplit(6.0));
        assert!(split > db(1.0, Method::PerTensor), "{split} dB");
    }

    #[test]
    fn a_threshold_no_channel_reaches_quantizes_everything() {
        let (x, w) = case(50.0);
        let plain = measure(&x, &w, Method::PerTensor, &[5]).unwrap();
        let split = measure(&x, &w, Method::OutlierSplit(f32::INFINITY), &[5]).unwrap();
        assert_eq!(plain, split);
        assert_eq!(plain.int8_fraction, 1.0);
        let s = measure(&x, &w, Method::OutlierSplit(6.0), &[5]).unwrap();
        assert_eq!(s.int8_fraction, (K - 1) as f64 / K as f64);
    }
}
