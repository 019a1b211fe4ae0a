//! Pruning the model's hidden layers with each of the three schemes of [`crate::prune`].

use super::{LayerMask, Mlp};
use crate::QuantError;
use crate::prune::{column_mask, magnitude_mask, two_four_mask};

/// Which weights to remove, and how many.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pruning {
    /// The given fraction of weights with the smallest |w|, anywhere in the layer.
    Magnitude(f64),
    /// Whole neurons (output columns with their biases), weakest first, for the given fraction.
    Neurons(f64),
    /// Two of every four consecutive weights along the input: exactly 50 %.
    TwoFour,
}

impl Pruning {
    pub fn label(self) -> &'static str {
        match self {
            Pruning::Magnitude(_) => "magnitude",
            Pruning::Neurons(_) => "neurons",
            Pruning::TwoFour => "2:4",
        }
    }
}

// ANCHOR: prune_hidden
/// Masks for every layer: the hidden-to-hidden layers pruned by `how`, the first layer (2
/// inputs) and the output layer (one column per class) left dense, as is usual.
pub fn hidden_masks(model: &Mlp, how: Pruning) -> Result<Vec<LayerMask>, QuantError> {
    let last = model.layers.len() - 1;
    let mut masks = Vec::with_capacity(model.layers.len());
    for (i, (w, _)) in model.layers.iter().enumerate() {
        let (k, n) = w.shape();
        let mut mask = LayerMask::dense(k, n);
        if i > 0 && i < last {
            mask.weight = match how {
                Pruning::Magnitude(s) => magnitude_mask(w, s),
                Pruning::Neurons(s) => column_mask(w, s),
                Pruning::TwoFour => two_four_mask(w)?,
            };
            if let Pruning::Neurons(_) = how {
                // A neuron with no inputs left is gone only if its bias goes too.
                mask.bias = (0..n)
                    .map(|c| (0..k).any(|r| mask.weight[r * n + c]))
                    .collect();
            }
        }
        masks.push(mask);
    }
    Ok(masks)
}
// ANCHOR_END: prune_hidden

/// `model` with every masked-off weight and bias set to zero.
pub fn apply_masks(model: &Mlp, masks: &[LayerMask]) -> Mlp {
    let mut out = model.clone();
    for ((w, b), m) in out.layers.iter_mut().zip(masks) {
        *w = crate::prune::apply_mask(w, &m.weight);
        *b = crate::prune::apply_mask(b, &m.bias);
    }
    out
}

/// The fraction of zero weights in the hidden-to-hidden layers.
pub fn hidden_sparsity(model: &Mlp) -> f64 {
    let last = model.layers.len().saturating_sub(1);
    let (zeros, all) = model
        .layers
        .iter()
        .enumerate()
        .filter(|(i, _)| *i > 0 && *i < last)
        .fold((0, 0), |(z, a), (_, (w, _))| {
            let d = w.data();
            (z + d.iter().filter(|x| **x == 0.0).count(), a + d.len())
        });
    zeros as f64 / all.max(1) as f64
}
