//! A tiny model trained here: a 2-D spiral data set, an MLP (2 → 64 → 64 → 3) trained with
//! plain full-batch gradient descent from a fixed seed, its weights in a safetensors file, and
//! the same model as a graph for the course's runners.

mod graph;
mod mlp;
mod spirals;
mod weights;

pub use graph::{GraphLayer, model_graph};
pub use mlp::{Mlp, accuracy, train};
pub use spirals::{Dataset, spirals};
pub use weights::{load, save, shipped, write};
