//! The CPU runner: interprets verified nodes with the CPU operators. Transfers are copies of
//! host values (the data never leaves the CPU), kept so that one list serves both runners.

use crate::Error;
use crate::graph::{BufferId, Contents, Node, NodeKind, VerifiedGraph};
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

// ANCHOR: workspace
/// Every buffer a graph's nodes write, kept from one run to the next, so that
/// [`run_reusing`] allocates nothing once the first run has given each buffer its shape.
pub struct Workspace {
    /// One tensor per buffer of the graph; inputs and parameters stay empty (never allocated).
    values: Vec<Tensor2D>,
    /// Where each buffer's value lives: an input of the call, a parameter, or `values`.
    sources: Vec<Source>,
    inputs: Vec<BufferId>,
    outputs: Vec<BufferId>,
}

#[derive(Clone, Copy)]
enum Source {
    Input(usize),
    Parameter,
    Written,
}
// ANCHOR_END: workspace

impl Workspace {
    /// An empty workspace for `graph`; the buffers are sized by the first run.
    pub fn new(graph: &VerifiedGraph) -> Self {
        let mut sources = vec![Source::Written; graph.buffers().len()];
        let inputs = graph.inputs();
        for (i, &id) in inputs.iter().enumerate() {
            sources[id] = Source::Input(i);
        }
        for (id, decl) in graph.buffers().iter().enumerate() {
            if matches!(decl.contents, Contents::Parameter(_)) {
                sources[id] = Source::Parameter;
            }
        }
        let values = (0..sources.len()).map(|_| Tensor2D::zeros(0, 0)).collect();
        Self {
            values,
            sources,
            inputs,
            outputs: graph.outputs(),
        }
    }

    /// Errors unless `inputs` fit `graph` and this workspace was made for `graph`; allocates
    /// nothing when they do.
    fn check(&self, graph: &VerifiedGraph, inputs: &[Tensor2D]) -> Result<(), Error> {
        if self.sources.len() != graph.buffers().len() {
            return Err(Error::Shape {
                op: "run_reusing",
                detail: format!(
                    "the workspace was made for a graph of {} buffers, this one has {}: make one \
                     with Workspace::new for each graph",
                    self.sources.len(),
                    graph.buffers().len()
                ),
            });
        }
        // The same check as every runner's, without its list of input ids (an allocation):
        // only a mismatch goes on to `check_inputs`, which says what is wrong.
        let decl = |id: BufferId| (graph.buffer(id).rows, graph.buffer(id).cols);
        let inputs_fit = inputs.len() == self.inputs.len()
            && (self.inputs.iter())
                .zip(inputs)
                .all(|(&id, t)| t.shape() == decl(id));
        if !inputs_fit {
            graph.check_inputs(inputs)?;
            return Err(Error::Shape {
                op: "run_reusing",
                detail: "the inputs fit the graph but not the workspace: make one with \
                         Workspace::new for each graph"
                    .into(),
            });
        }
        Ok(())
    }

    /// The results of the last run, in the order of [`VerifiedGraph::outputs`].
    pub fn outputs(&self) -> impl Iterator<Item = &Tensor2D> {
        self.outputs.iter().map(|&id| &self.values[id])
    }
}

// ANCHOR: run_reusing
/// [`run`] without the allocations: each node writes into its buffer in `workspace` (an empty
/// tensor costs nothing; `zeros(0, 0)` owns no memory), and reads its arguments in place.
/// Results are in [`Workspace::outputs`]. Custom operators still allocate their result.
pub fn run_reusing(
    graph: &VerifiedGraph,
    inputs: &[Tensor2D],
    workspace: &mut Workspace,
) -> Result<(), Error> {
    workspace.check(graph, inputs)?;
    let _run = tracing::info_span!("run_cpu_reusing", nodes = graph.nodes().len()).entered();
    for node in graph.nodes() {
        let _node = tracing::debug_span!("node", kind = ?node.kind).entered();
        // Take the output out of the workspace so the node can read the others while writing
        // it; a verified graph never reads the buffer a node writes.
        let mut out =
            std::mem::replace(&mut workspace.values[node.output()], Tensor2D::zeros(0, 0));
        let value = |id: BufferId| match workspace.sources[id] {
            Source::Input(i) => &inputs[i],
            Source::Parameter => graph.value(&[], id),
            Source::Written => &workspace.values[id],
        };
        let arg = |i: usize| value(node.reads()[i]);
        match &node.kind {
            NodeKind::HostToDevice | NodeKind::DeviceToHost => cpu::copy_into(arg(0), &mut out),
            NodeKind::Linear => cpu::linear_into(arg(0), arg(1), arg(2), &mut out)?,
            NodeKind::LinearRelu => cpu::linear_relu_into(arg(0), arg(1), arg(2), &mut out)?,
            NodeKind::LinearReluSoftmax => {
                cpu::linear_relu_softmax_into(arg(0), arg(1), arg(2), &mut out)?
            }
            NodeKind::Relu => cpu::relu_into(arg(0), &mut out),
            NodeKind::Softmax => cpu::softmax_into(arg(0), &mut out),
            NodeKind::Custom(_) => {
                let args: Vec<&Tensor2D> = node.reads().iter().map(|&id| value(id)).collect();
                out = run_node(node, &args)?;
            }
        }
        workspace.values[node.output()] = out;
    }
    Ok(())
}
// ANCHOR_END: run_reusing
