//! A tiny model trained here: a 2-D spiral data set, an MLP (2 → 64 → 64 → 3) trained with
//! plain full-batch gradient descent from a fixed seed, its weights in a safetensors file, and
//! the same model as a graph for the course's runners. A harder spiral task, minibatch Adam
//! training with pruning masks held fixed, and the pruning of the hidden layers serve the
//! accuracy-against-sparsity experiment.

mod finetune;
mod graph;
mod mlp;
mod pruning;
mod spirals;
mod weights;

pub use finetune::{LayerMask, Recipe, train_masked};
pub(crate) use finetune::{Moments, gradients, shuffle};
pub use graph::{GraphLayer, model_graph};
pub use mlp::{Mlp, accuracy, train};
pub use pruning::{Pruning, apply_masks, hidden_masks, hidden_sparsity};
pub use spirals::{Dataset, SpiralTask, held_out_spirals, spirals};
pub use weights::{load, save, shipped, write};
