//! A small graph runner: nodes in execution order, each reading an earlier node's image.

use gpu_context::GpuContext;

use crate::{Image, PoolError, max_pool_cpu, max_pool_gpu};

#[derive(Clone, Copy, Debug)]
pub enum Node {
    /// The graph's input image.
    Input,
    /// `max(x, 0)` of node `.0` (given).
    Relu(usize),
    /// Max pooling of node `input` with window and stride `k`.
    MaxPool { input: usize, k: usize },
}

/// Where the graph runs.
pub enum Device<'a> {
    Cpu,
    Gpu(&'a GpuContext),
}

/// Runs the nodes in order and returns the last node's image.
pub fn run_graph(device: &Device<'_>, nodes: &[Node], input: &Image) -> Result<Image, PoolError> {
    let mut values: Vec<Image> = Vec::with_capacity(nodes.len());
    for (index, node) in nodes.iter().enumerate() {
        let earlier = |i: usize| {
            values.get(i).ok_or_else(|| {
                PoolError::Shape(format!(
                    "node {index} reads node {i}, which does not come before it"
                ))
            })
        };
        let value = match *node {
            Node::Input => input.clone(),
            Node::Relu(i) => {
                let x = earlier(i)?;
                Image {
                    data: x.data.iter().map(|v| v.max(0.0)).collect(),
                    ..x.clone()
                }
            }
            Node::MaxPool { input: i, k } => {
                let x = earlier(i)?;
                match device {
                    Device::Cpu => max_pool_cpu(x, k)?,
                    Device::Gpu(ctx) => max_pool_gpu(ctx, x, k)?,
                }
            }
        };
        values.push(value);
    }
    values
        .pop()
        .ok_or_else(|| PoolError::Shape("the graph has no nodes".into()))
}
