//! The CPU runner: interprets verified nodes with the CPU operators. Transfers are copies of
//! host values (the data never leaves the CPU), kept so that one list serves both runners.

use super::{Node, NodeKind, VerifiedGraph};
use crate::Error;
use crate::ops::cpu;
use crate::tensor::Tensor2D;

// ANCHOR: run
/// Runs the graph once; `inputs` in the order of [`VerifiedGraph::inputs`], results in the
/// order of [`VerifiedGraph::outputs`].
pub fn run(graph: &VerifiedGraph, inputs: &[Tensor2D]) -> Result<Vec<Tensor2D>, Error> {
    let _run = tracing::info_span!("run_cpu", nodes = graph.nodes().len()).entered();
    let mut values = graph.bind_inputs(inputs)?;
    for node in graph.nodes() {
        let _node = tracing::debug_span!("node", kind = ?node.kind).entered();
        let args: Vec<&Tensor2D> = node
            .reads()
            .iter()
            .map(|&id| graph.value(&values, id))
            .collect();
        let result = run_node(node, &args)?;
        values[node.output()] = Some(result);
    }
    Ok(graph.collect_outputs(values))
}

/// One node's result from the values it reads (in the order of [`Node::reads`]). Executors that
/// keep their values elsewhere (a memory plan, aliased buffers) call this too.
pub fn run_node(node: &Node, args: &[&Tensor2D]) -> Result<Tensor2D, Error> {
    Ok(match &node.kind {
        NodeKind::HostToDevice | NodeKind::DeviceToHost => args[0].clone(),
        NodeKind::Linear => cpu::linear(args[0], args[1], args[2])?,
        NodeKind::LinearRelu => cpu::linear_relu(args[0], args[1], args[2])?,
        NodeKind::LinearReluSoftmax => cpu::linear_relu_softmax(args[0], args[1], args[2])?,
        NodeKind::Relu => cpu::relu(args[0]),
        NodeKind::Softmax => cpu::softmax(args[0]),
        NodeKind::Custom(op) => super::custom_run_cpu(op, args)?,
    })
}
// ANCHOR_END: run
