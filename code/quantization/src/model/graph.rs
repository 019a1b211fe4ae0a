use computational_graphs::graph::{GraphBuilder, OpList};

use super::Mlp;
use crate::QuantError;
use crate::ops::{DotKind, QuantLinear};

/// Which operator each Linear layer becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphLayer {
    /// The graph's own f32 Linear.
    F32,
    /// [`QuantLinear`]: int8 weights and activations.
    Int8(DotKind),
}

// ANCHOR: model_graph
/// The model as an operator list: input (batch×2) → Linear → ReLU → … → Linear → logits.
pub fn model_graph(model: &Mlp, batch: usize, layer: GraphLayer) -> Result<OpList, QuantError> {
    let mut g = GraphBuilder::new();
    let x = g.input("points", batch, model.layers[0].0.rows());
    let mut h = g.to_device(x);
    for (i, (w, b)) in model.layers.iter().enumerate() {
        h = match layer {
            GraphLayer::F32 => {
                let wd = g.parameter(&format!("w{i}"), w.clone());
                let bd = g.parameter(&format!("b{i}"), b.clone());
                g.linear(h, wd, bd)
            }
            GraphLayer::Int8(dot) => g.custom(QuantLinear::new(w, b, dot)?, &[h]),
        };
        if i + 1 < model.layers.len() {
            h = g.relu(h);
        }
    }
    g.to_host(h);
    Ok(g.finish())
}
// ANCHOR_END: model_graph
