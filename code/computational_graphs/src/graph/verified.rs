//! The validated graph: nodes that hold buffer indices, checked once so runners need not.

use super::{BufferDecl, BufferId, Contents, Custom, Place};
use crate::Error;
use crate::ops::gpu::Kernel;
use crate::tensor::Tensor2D;

// ANCHOR: node
/// What a verified node does. Same names as [`super::Operator`], without the buffer fields:
/// those are in [`Node::buffers`], in the order inputs…, output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    HostToDevice,
    DeviceToHost,
    Linear,
    Relu,
    Softmax,
    LinearRelu,
    LinearReluSoftmax,
    /// An operator from outside the crate; it knows its own shapes and kernels.
    Custom(Custom),
}

impl NodeKind {
    /// The hand-written kernel that runs this node (None for transfers and custom operators).
    pub fn kernel(&self) -> Option<Kernel> {
        match self {
            NodeKind::Linear => Some(Kernel::Linear),
            NodeKind::Relu => Some(Kernel::Relu),
            NodeKind::Softmax => Some(Kernel::Softmax),
            NodeKind::LinearRelu => Some(Kernel::LinearRelu),
            NodeKind::LinearReluSoftmax => Some(Kernel::LinearReluSoftmax),
            NodeKind::HostToDevice | NodeKind::DeviceToHost | NodeKind::Custom(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Indices into the graph's buffers: what the node reads, then what it writes (last).
    pub buffers: Vec<BufferId>,
}
// ANCHOR_END: node

impl Node {
    pub fn output(&self) -> BufferId {
        *self
            .buffers
            .last()
            .expect("a verified node always writes a buffer")
    }

    pub fn reads(&self) -> &[BufferId] {
        &self.buffers[..self.buffers.len() - 1]
    }
}

/// A graph that passed [`super::validate`]. Only validation and fusion (which keeps the rules)
/// can make one, so a runner holding one knows every index and shape is right.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifiedGraph {
    pub(crate) buffers: Vec<BufferDecl>,
    pub(crate) nodes: Vec<Node>,
}

impl VerifiedGraph {
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn buffers(&self) -> &[BufferDecl] {
        &self.buffers
    }

    pub fn buffer(&self, id: BufferId) -> &BufferDecl {
        &self.buffers[id]
    }

    /// The host buffers the caller fills, in declaration order.
    pub fn inputs(&self) -> Vec<BufferId> {
        (0..self.buffers.len())
            .filter(|&i| self.buffers[i].contents == Contents::Input)
            .collect()
    }

    /// The host buffers written by DeviceToHost nodes, in node order.
    pub fn outputs(&self) -> Vec<BufferId> {
        self.nodes
            .iter()
            .filter(|n| n.kind == NodeKind::DeviceToHost)
            .map(Node::output)
            .collect()
    }

    /// Whether any node reads or writes this buffer (fusion leaves some unused).
    pub fn is_used(&self, id: BufferId) -> bool {
        self.nodes.iter().any(|n| n.buffers.contains(&id))
    }

    pub fn is_device(&self, id: BufferId) -> bool {
        self.buffers[id].place == Place::Device
    }

    /// Checks the caller's inputs against the graph's input buffers and places them in a
    /// table of values, one slot per buffer.
    /// A graph with only this graph's input declarations (no parameters, no nodes): enough for
    /// [`VerifiedGraph::check_inputs`], and small to keep.
    pub(crate) fn inputs_only(&self) -> VerifiedGraph {
        VerifiedGraph {
            buffers: self
                .buffers
                .iter()
                .filter(|b| b.contents == Contents::Input)
                .cloned()
                .collect(),
            nodes: Vec::new(),
        }
    }

    /// The one input check every runner makes: as many tensors as the graph has inputs, each
    /// exactly its declared shape (a 4×2 tensor is never read as a 2×4 or 8×1 one).
    pub fn check_inputs(&self, inputs: &[Tensor2D]) -> Result<(), Error> {
        let ids = self.inputs();
        if ids.len() != inputs.len() {
            return Err(Error::Shape {
                op: "graph input",
                detail: format!(
                    "the graph has {} inputs but {} tensors were given",
                    ids.len(),
                    inputs.len()
                ),
            });
        }
        for (&id, t) in ids.iter().zip(inputs) {
            let b = &self.buffers[id];
            if t.shape() != (b.rows, b.cols) {
                return Err(Error::Shape {
                    op: "graph input",
                    detail: format!(
                        "input \"{}\" is {}×{} but a {}×{} tensor was given",
                        b.name,
                        b.rows,
                        b.cols,
                        t.rows(),
                        t.cols()
                    ),
                });
            }
        }
        Ok(())
    }

    pub fn bind_inputs(&self, inputs: &[Tensor2D]) -> Result<Vec<Option<Tensor2D>>, Error> {
        self.check_inputs(inputs)?;
        let ids = self.inputs();
        let mut values = vec![None; self.buffers.len()];
        for (&id, t) in ids.iter().zip(inputs) {
            values[id] = Some(t.clone());
        }
        Ok(values)
    }

    /// The value of a buffer: a parameter's numbers, or what a node (or the caller) put there.
    pub fn value<'a>(&'a self, values: &'a [Option<Tensor2D>], id: BufferId) -> &'a Tensor2D {
        match &self.buffers[id].contents {
            Contents::Parameter(t) => t,
            _ => values[id]
                .as_ref()
                .expect("validation guarantees every read buffer was written first"),
        }
    }

    pub fn collect_outputs(&self, mut values: Vec<Option<Tensor2D>>) -> Vec<Tensor2D> {
        self.outputs()
            .into_iter()
            .map(|id| {
                values[id]
                    .take()
                    .expect("outputs are written by their DeviceToHost")
            })
            .collect()
    }
}
