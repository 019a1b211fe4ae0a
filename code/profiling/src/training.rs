//! A case study: training a small network with the backward pass of
//! [`computational_graphs::autograd`], on the spiral points of module 3's tiny model.
//!
//! The data comes from `quantization::model::spirals` (this crate may depend on both; the
//! graph crate may not depend on `quantization`, which depends on it).

use computational_graphs::Error;
use computational_graphs::autograd::{Layer, Sequential};
use computational_graphs::tensor::Tensor2D;
use quantization::model::{Dataset, accuracy};
use serde::{Deserialize, Serialize};

/// Two points per class (x, y), three classes: a hidden layer of `hidden` units between.
pub fn two_layer_mlp(hidden: usize, seed: u64) -> Sequential {
    Sequential::mlp(&[2, hidden, 3], seed)
}

// ANCHOR: train
/// Full-batch gradient descent: `steps` times forward (keeping the tape), backward, step.
/// Returns the loss before each step.
pub fn train(
    net: &mut Sequential,
    data: &Dataset,
    steps: usize,
    rate: f32,
) -> Result<Vec<f32>, Error> {
    let mut losses = Vec::with_capacity(steps);
    for _ in 0..steps {
        let (loss, tape) = net.forward_loss(&data.x, &data.labels)?;
        let grads = net.backward(&tape)?;
        net.sgd_step(&grads, rate)?;
        losses.push(loss);
    }
    Ok(losses)
}
// ANCHOR_END: train

/// The fraction of `data` the network classifies right.
pub fn evaluate(net: &Sequential, data: &Dataset) -> Result<f64, Error> {
    Ok(accuracy(&net.forward(&data.x)?, &data.labels))
}

// ANCHOR: gradient_check
/// A network, a batch and the gradients this crate computed for it, as JSON for
/// `bench/autograd_check.py` to rebuild in PyTorch and compare. Matrices are lists of rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradientCheck {
    /// Widths of the layers, input first.
    pub widths: Vec<usize>,
    pub x: Vec<Vec<f32>>,
    pub labels: Vec<usize>,
    /// Each Linear layer's weights (in × out, applied as `x · W + b`) and bias.
    pub layers: Vec<LinearParams>,
    pub loss: f32,
    /// The gradient of the mean loss with respect to each Linear layer's weights and bias.
    pub gradients: Vec<LinearParams>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinearParams {
    pub weights: Vec<Vec<f32>>,
    pub bias: Vec<f32>,
}
// ANCHOR_END: gradient_check

impl GradientCheck {
    /// One forward and backward pass of `net` on `data`, recorded.
    pub fn record(net: &Sequential, data: &Dataset) -> Result<Self, Error> {
        let (loss, tape) = net.forward_loss(&data.x, &data.labels)?;
        let grads = net.backward(&tape)?;
        let mut widths = vec![data.x.cols()];
        let mut layers = Vec::new();
        let mut gradients = Vec::new();
        for (layer, grad) in net.layers.iter().zip(&grads.layers) {
            if let (Layer::Linear { weights, bias }, Some(g)) = (layer, grad) {
                widths.push(weights.cols());
                layers.push(LinearParams::new(weights, bias));
                gradients.push(LinearParams::new(&g.weights, &g.bias));
            }
        }
        Ok(Self {
            widths,
            x: rows(&data.x),
            labels: data.labels.clone(),
            layers,
            loss,
            gradients,
        })
    }
}

impl LinearParams {
    fn new(weights: &Tensor2D, bias: &Tensor2D) -> Self {
        Self {
            weights: rows(weights),
            bias: bias.data().to_vec(),
        }
    }
}

fn rows(t: &Tensor2D) -> Vec<Vec<f32>> {
    t.data()
        .chunks(t.cols().max(1))
        .map(<[f32]>::to_vec)
        .collect()
}
