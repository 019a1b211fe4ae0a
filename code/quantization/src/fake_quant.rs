//! Quantize then dequantize a weight matrix, to see what the model loses at each bit width.

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::{Affine, Scheme};

/// One scale for the whole tensor, or one per output channel (a column of a k×n weight matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Granularity {
    PerTensor,
    PerChannel,
}

// ANCHOR: fake_quantize
/// The weights as the quantized model sees them: each value snapped to its nearest level.
pub fn fake_quantize(
    w: &Tensor2D,
    bits: u32,
    scheme: Scheme,
    granularity: Granularity,
) -> Result<Tensor2D, QuantError> {
    let (k, n) = w.shape();
    let columns: Vec<Vec<f32>> = (0..n)
        .map(|c| (0..k).map(|r| w.get(r, c)).collect())
        .collect();
    let range = |xs: &[f32]| {
        let lo = xs.iter().copied().fold(0.0f32, f32::min);
        let hi = xs.iter().copied().fold(0.0f32, f32::max);
        (lo, hi)
    };
    let whole = range(w.data());
    let mut out = w.clone();
    for (c, column) in columns.iter().enumerate() {
        let (lo, hi) = match granularity {
            Granularity::PerTensor => whole,
            Granularity::PerChannel => range(column),
        };
        let map = Affine::fit(lo, hi, bits, scheme)?;
        for (r, &x) in column.iter().enumerate() {
            out.data_mut()[r * n + c] = map.dequantize(map.quantize(x));
        }
    }
    Ok(out)
}
// ANCHOR_END: fake_quantize

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_channel_is_never_worse_than_per_tensor_here() {
        // Column 0 is tiny, column 1 is large: one shared scale wipes column 0 out.
        let w = Tensor2D::from_rows(&[[0.01, 3.0], [-0.02, -2.0], [0.015, 1.0]]);
        let t = fake_quantize(&w, 4, Scheme::Symmetric, Granularity::PerTensor).unwrap();
        let c = fake_quantize(&w, 4, Scheme::Symmetric, Granularity::PerChannel).unwrap();
        assert_eq!(t.get(0, 0), 0.0);
        let col0_err = |q: &Tensor2D| {
            (0..3)
                .map(|r| (q.get(r, 0) - w.get(r, 0)).abs())
                .fold(0.0, f32::max)
        };
        assert!(col0_err(&c) < col0_err(&t) / 10.0);
        assert!((c.get(1, 0) + 0.02).abs() < 0.002);
    }
}
