//! Seeded random graphs for the benchmarks: `depth` operators on `size × size` tensors.
//!
//! The network: an input, then `depth − 1` operators that are each Linear or ReLU with equal
//! odds, then a Softmax; transfers at both ends. The same seed gives the same graph everywhere,
//! and [`describe`] writes it as JSON so that the PyTorch script can build the very same one.

use crate::graph::{GraphBuilder, OpList};
use crate::rng::SplitMix64;
use crate::tensor::Tensor2D;

/// The operator sequence of a random graph (without transfers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    Linear,
    Relu,
    Softmax,
}

/// The layer sequence for a seed: depth − 1 random Linear/ReLU, then Softmax.
pub fn layers(seed: u64, depth: usize) -> Vec<Layer> {
    let mut rng = SplitMix64::new(seed);
    let mut layers: Vec<Layer> = (0..depth.saturating_sub(1))
        .map(|_| {
            if rng.coin() {
                Layer::Linear
            } else {
                Layer::Relu
            }
        })
        .collect();
    layers.push(Layer::Softmax);
    layers
}

// ANCHOR: random_graph
/// The operator list and an input for a seeded random graph.
pub fn random_graph(seed: u64, size: usize, depth: usize) -> (OpList, Tensor2D) {
    let mut rng = SplitMix64::new(seed ^ 0x5EED);
    // Weights of scale 1/√n keep values of order 1 through many layers.
    let scale = 1.0 / (size.max(1) as f32).sqrt();
    let mut g = GraphBuilder::new();
    let x = g.input("x", size, size);
    let mut h = g.to_device(x);
    for (i, layer) in layers(seed, depth).into_iter().enumerate() {
        h = match layer {
            Layer::Linear => {
                let w = g.parameter(
                    &format!("w{i}"),
                    Tensor2D::random(size, size, scale, &mut rng),
                );
                let b = g.parameter(&format!("b{i}"), Tensor2D::random(1, size, scale, &mut rng));
                g.linear(h, w, b)
            }
            Layer::Relu => g.relu(h),
            Layer::Softmax => g.softmax(h),
        };
    }
    g.to_host(h);
    (g.finish(), Tensor2D::random(size, size, 1.0, &mut rng))
}
// ANCHOR_END: random_graph

/// What a seed's graph is, for a program in another language that builds the same graph (the
/// PyTorch baseline): as JSON, `{"seed":1,"size":256,"depth":4,"layers":["linear","relu",…]}`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GraphDescription {
    pub seed: u64,
    pub size: usize,
    pub depth: usize,
    pub layers: Vec<&'static str>,
}

pub fn describe(seed: u64, size: usize, depth: usize) -> GraphDescription {
    let layers = layers(seed, depth)
        .into_iter()
        .map(|l| match l {
            Layer::Linear => "linear",
            Layer::Relu => "relu",
            Layer::Softmax => "softmax",
        })
        .collect();
    GraphDescription {
        seed,
        size,
        depth,
        layers,
    }
}
