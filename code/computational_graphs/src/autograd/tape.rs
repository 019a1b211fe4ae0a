//! A chain of layers that remembers, on the way forward, what its backward pass will need.

use super::s3_softmax_cross_entropy::{softmax_cross_entropy, softmax_cross_entropy_backward};
use super::{LinearGrads, linear_backward, relu_backward};
use crate::ops::cpu;
use crate::rng::SplitMix64;
use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

/// One step of a [`Sequential`] chain.
#[derive(Clone, Debug, PartialEq)]
pub enum Layer {
    /// `x · weights + bias`, weights k×n and bias 1×n.
    Linear {
        weights: Tensor2D,
        bias: Tensor2D,
    },
    Relu,
}

impl Layer {
    /// A Linear layer, once the bias is known to be one row as wide as the weights.
    pub fn linear(weights: Tensor2D, bias: Tensor2D) -> Result<Self, Error> {
        if bias.shape() != (1, weights.cols()) {
            let e = ShapeError::Mismatch {
                what: "the bias",
                got: bias.shape(),
                expected: (1, weights.cols()),
            };
            return Err(Error::shape("Layer::linear", e));
        }
        Ok(Layer::Linear { weights, bias })
    }
}

/// Layers applied one after the other; the last one's output are the logits.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequential {
    pub layers: Vec<Layer>,
}

// ANCHOR: tape
/// What the forward pass keeps for the backward pass: the input of every layer (a Linear
/// layer needs its input for `dW`, a ReLU needs its input to know where it let the gradient
/// through), and the softmax probabilities with the labels for the loss's gradient.
#[derive(Clone, Debug)]
pub struct Tape {
    inputs: Vec<Tensor2D>,
    probabilities: Tensor2D,
    labels: Vec<usize>,
}

/// The gradients of one backward pass, one entry per layer (`None` for a ReLU).
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    pub layers: Vec<Option<LinearGrads>>,
}
// ANCHOR_END: tape

impl Sequential {
    pub fn new(layers: Vec<Layer>) -> Self {
        Self { layers }
    }

    /// Linear layers of the given widths with a ReLU between each two, weights uniform in
    /// ±√(6 / fan-in) (He's scale for ReLU networks) from a fixed seed, biases zero.
    pub fn mlp(widths: &[usize], seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut layers = Vec::new();
        for (i, pair) in widths.windows(2).enumerate() {
            if i > 0 {
                layers.push(Layer::Relu);
            }
            let scale = (6.0 / pair[0].max(1) as f32).sqrt();
            layers.push(Layer::Linear {
                weights: Tensor2D::random(pair[0], pair[1], scale, &mut rng),
                bias: Tensor2D::zeros(1, pair[1]),
            });
        }
        Self { layers }
    }

    /// The logits, with nothing kept (for evaluation).
    pub fn forward(&self, x: &Tensor2D) -> Result<Tensor2D, Error> {
        let mut out = x.clone();
        for layer in &self.layers {
            out = apply(layer, &out)?;
        }
        Ok(out)
    }

    // ANCHOR: forward_backward
    /// The mean cross-entropy loss of `x` against `labels`, and the tape to differentiate it.
    pub fn forward_loss(&self, x: &Tensor2D, labels: &[usize]) -> Result<(f32, Tape), Error> {
        let mut inputs = Vec::with_capacity(self.layers.len());
        let mut out = x.clone();
        for layer in &self.layers {
            let next = apply(layer, &out)?;
            inputs.push(std::mem::replace(&mut out, next));
        }
        let loss = softmax_cross_entropy(&out, labels)?;
        let tape = Tape {
            inputs,
            probabilities: loss.probabilities,
            labels: labels.to_vec(),
        };
        Ok((loss.loss, tape))
    }

    /// The reverse pass: start from the loss's gradient and hand each layer the gradient of
    /// its output, newest layer first; each returns the gradient of its input.
    pub fn backward(&self, tape: &Tape) -> Result<Gradients, Error> {
        self.check_tape(tape)?;
        let mut grad = softmax_cross_entropy_backward(&tape.probabilities, &tape.labels)?;
        let mut layers = vec![None; self.layers.len()];
        for (i, layer) in self.layers.iter().enumerate().rev() {
            let input = &tape.inputs[i];
            match layer {
                Layer::Linear { weights, .. } => {
                    let g = linear_backward(input, weights, &grad)?;
                    grad = g.input.clone();
                    layers[i] = Some(g);
                }
                Layer::Relu => grad = relu_backward(input, &grad)?,
            }
        }
        Ok(Gradients { layers })
    }
    // ANCHOR_END: forward_backward

    /// A tape from another network would pair layers with the wrong inputs.
    fn check_tape(&self, tape: &Tape) -> Result<(), Error> {
        if tape.inputs.len() != self.layers.len() {
            let e = ShapeError::invalid(format!(
                "the tape has {} layers but the network {}: pass the tape this network's \
                 forward_loss made",
                tape.inputs.len(),
                self.layers.len()
            ));
            return Err(Error::shape("Sequential::backward", e));
        }
        Ok(())
    }

    // ANCHOR: sgd
    /// One step of plain gradient descent: every parameter moves against its gradient.
    pub fn sgd_step(&mut self, grads: &Gradients, rate: f32) -> Result<(), Error> {
        for (layer, grad) in self.layers.iter_mut().zip(&grads.layers) {
            if let (Layer::Linear { weights, bias }, Some(g)) = (layer, grad) {
                descend(weights, &g.weights, rate)?;
                descend(bias, &g.bias, rate)?;
            }
        }
        Ok(())
    }
    // ANCHOR_END: sgd
}

fn apply(layer: &Layer, x: &Tensor2D) -> Result<Tensor2D, Error> {
    match layer {
        Layer::Linear { weights, bias } => cpu::linear(x, weights, bias),
        Layer::Relu => Ok(cpu::relu(x)),
    }
}

fn descend(param: &mut Tensor2D, grad: &Tensor2D, rate: f32) -> Result<(), Error> {
    if param.shape() != grad.shape() {
        let e = ShapeError::Mismatch {
            what: "the gradient",
            got: grad.shape(),
            expected: param.shape(),
        };
        return Err(Error::shape("Sequential::sgd_step", e));
    }
    for (p, g) in param.data_mut().iter_mut().zip(grad.data()) {
        *p -= rate * g;
    }
    Ok(())
}
