//! The CPU runner: interprets verified nodes with the CPU operators. Transfers are copies of
//! host values (the data never leaves the CPU), kept so that one list serves both runners.

use super::{NodeKind, VerifiedGraph};
use crate::Error;
use crate::ops::cpu;
use crate::tensor::Tensor2D;

// ANCHOR: run
/// Runs the graph once; `inputs` in the order of [`VerifiedGraph::inputs`], results in the
/// order of [`VerifiedGraph::outputs`].
pub fn run(graph: &VerifiedGraph, inputs: &[Tensor2D]) -> Result<Vec<Tensor2D>, Error> {
    let mut values = graph.bind_inputs(inputs)?;
    for node in graph.nodes() {
        let arg = |i: usize| graph.value(&values, node.buffers[i]);
        let result = match &node.kind {
            NodeKind::HostToDevice | NodeKind::DeviceToHost => arg(0).clone(),
            NodeKind::Linear => cpu::linear(arg(0), arg(1), arg(2))?,
            NodeKind::LinearRelu => cpu::linear_relu(arg(0), arg(1), arg(2))?,
            NodeKind::LinearReluSoftmax => cpu::linear_relu_softmax(arg(0), arg(1), arg(2))?,
            NodeKind::Relu => cpu::relu(arg(0)),
            NodeKind::Softmax => cpu::softmax(arg(0)),
            NodeKind::Custom(op) => {
                let inputs: Vec<_> = node
                    .reads()
                    .iter()
                    .map(|&id| graph.value(&values, id))
                    .collect();
                super::custom_run_cpu(op, &inputs)?
            }
        };
        values[node.output()] = Some(result);
    }
    Ok(graph.collect_outputs(values))
}
// ANCHOR_END: run
