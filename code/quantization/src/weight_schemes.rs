//! Post-training weight quantization of a whole model, scheme by scheme, with what each scheme
//! costs in storage: the comparison a practitioner makes before choosing one.

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::Scheme;
use crate::fake_quant::{Granularity, fake_quantize};
use crate::group4::Group4Weights;
use crate::model::Mlp;

// ANCHOR: weight_scheme
/// How every layer's weights are stored (symmetric integers; biases stay f32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightScheme {
    F32,
    /// `bits`-bit integers, one f32 scale per weight matrix.
    PerTensor(u32),
    /// `bits`-bit integers, one f32 scale per output column.
    PerChannel(u32),
    /// 4-bit integers, one f32 scale per `group` consecutive weights of a column.
    Groups4(usize),
}

impl WeightScheme {
    /// The weights the quantized model computes with.
    pub fn apply(self, w: &Tensor2D) -> Result<Tensor2D, QuantError> {
        match self {
            WeightScheme::F32 => Ok(w.clone()),
            WeightScheme::PerTensor(b) => {
                fake_quantize(w, b, Scheme::Symmetric, Granularity::PerTensor)
            }
            WeightScheme::PerChannel(b) => {
                fake_quantize(w, b, Scheme::Symmetric, Granularity::PerChannel)
            }
            WeightScheme::Groups4(g) => Ok(Group4Weights::quantize(w, g)?.dequantize()),
        }
    }

    /// Bytes per weight of a k×n matrix, scales included.
    pub fn bytes_per_weight(self, k: usize, n: usize) -> f64 {
        let (k, n) = (k as f64, n as f64);
        match self {
            WeightScheme::F32 => 4.0,
            WeightScheme::PerTensor(b) => f64::from(b) / 8.0 + 4.0 / (k * n),
            WeightScheme::PerChannel(b) => f64::from(b) / 8.0 + 4.0 / k,
            // Eight nibbles to a u32 word per column; a short last group still has its scale.
            WeightScheme::Groups4(g) => 4.0 * ((k / 8.0).ceil() + (k / g as f64).ceil()) / k,
        }
    }
}
// ANCHOR_END: weight_scheme

impl std::fmt::Display for WeightScheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightScheme::F32 => write!(f, "f32"),
            WeightScheme::PerTensor(b) => write!(f, "{b}-bit per tensor"),
            WeightScheme::PerChannel(b) => write!(f, "{b}-bit per channel"),
            WeightScheme::Groups4(g) => write!(f, "4-bit groups of {g}"),
        }
    }
}

/// `model` with every layer's weights stored by `scheme`.
pub fn quantize_model(model: &Mlp, scheme: WeightScheme) -> Result<Mlp, QuantError> {
    let layers = model
        .layers
        .iter()
        .map(|(w, b)| Ok((scheme.apply(w)?, b.clone())))
        .collect::<Result<_, QuantError>>()?;
    Ok(Mlp { layers })
}

/// Bytes per weight over the whole model (every layer's weights and scales, biases left out).
pub fn model_bytes_per_weight(model: &Mlp, scheme: WeightScheme) -> f64 {
    let (bytes, count) = model.layers.iter().fold((0.0, 0usize), |(b, c), (w, _)| {
        let (k, n) = w.shape();
        (
            b + scheme.bytes_per_weight(k, n) * (k * n) as f64,
            c + k * n,
        )
    });
    bytes / count.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_bits_in_groups_of_eight_cost_as_much_as_int8() {
        let g8 = WeightScheme::Groups4(8).bytes_per_weight(64, 64);
        assert_eq!(g8, 1.0);
        assert!(WeightScheme::PerChannel(8).bytes_per_weight(64, 64) > 1.0);
        assert_eq!(WeightScheme::Groups4(32).bytes_per_weight(64, 64), 0.625);
    }

    #[test]
    fn the_stored_bytes_of_group4_match_the_formula() {
        let w = Tensor2D::zeros(64, 16);
        let q = Group4Weights::quantize(&w, 32).unwrap();
        let formula = WeightScheme::Groups4(32).bytes_per_weight(64, 16) * 64.0 * 16.0;
        assert_eq!(q.bytes() as f64, formula);
    }

    #[test]
    fn f32_leaves_the_model_unchanged_and_four_bits_change_it() {
        let model = Mlp::new(&[2, 16, 3], 1);
        assert_eq!(quantize_model(&model, WeightScheme::F32).unwrap(), model);
        let q = quantize_model(&model, WeightScheme::PerTensor(4)).unwrap();
        assert_ne!(q, model);
        // Every 4-bit per-tensor weight is one of 15 levels of its layer.
        let (w, _) = &q.layers[1];
        let step = w.data().iter().fold(0.0f32, |m, x| m.max(x.abs())) / 7.0;
        for x in w.data() {
            assert!(((x / step).round() - x / step).abs() < 1e-4);
        }
    }
}
