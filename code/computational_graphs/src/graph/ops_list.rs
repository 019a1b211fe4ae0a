//! The operator list: what a user (or a random graph generator) writes down.

use super::Custom;
use crate::tensor::Tensor2D;

/// Index of a buffer in [`OpList::buffers`].
pub type BufferId = usize;

/// Where a buffer lives. Kernels only touch device buffers; the program only touches host ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Host,
    Device,
}

/// What a buffer holds before the graph runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Contents {
    /// Filled by the caller for every run (a host buffer).
    Input,
    /// Fixed numbers (weights, biases), placed on the device once, when the graph is set up.
    Parameter(Tensor2D),
    /// Nothing: some operator must write it before anyone reads it.
    Empty,
}

// ANCHOR: buffer_decl
#[derive(Clone, Debug, PartialEq)]
pub struct BufferDecl {
    pub name: String,
    pub rows: usize,
    pub cols: usize,
    pub place: Place,
    pub contents: Contents,
}
// ANCHOR_END: buffer_decl

// ANCHOR: operator
/// One step of the graph. Every operator names the buffers it reads and the one it writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Operator {
    HostToDevice {
        from: BufferId,
        to: BufferId,
    },
    DeviceToHost {
        from: BufferId,
        to: BufferId,
    },
    Linear {
        input: BufferId,
        weights: BufferId,
        bias: BufferId,
        output: BufferId,
    },
    Relu {
        input: BufferId,
        output: BufferId,
    },
    Softmax {
        input: BufferId,
        output: BufferId,
    },
    LinearRelu {
        input: BufferId,
        weights: BufferId,
        bias: BufferId,
        output: BufferId,
    },
    LinearReluSoftmax {
        input: BufferId,
        weights: BufferId,
        bias: BufferId,
        output: BufferId,
    },
    /// An operator defined outside this crate (see [`super::CustomOperator`]).
    Custom {
        op: Custom,
        inputs: Vec<BufferId>,
        output: BufferId,
    },
}

/// The whole graph as written: buffers, and operators in the order they run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpList {
    pub buffers: Vec<BufferDecl>,
    pub ops: Vec<Operator>,
}
// ANCHOR_END: operator

impl Operator {
    pub fn name(&self) -> &'static str {
        match self {
            Operator::HostToDevice { .. } => "HostToDevice",
            Operator::DeviceToHost { .. } => "DeviceToHost",
            Operator::Linear { .. } => "Linear",
            Operator::Relu { .. } => "ReLU",
            Operator::Softmax { .. } => "Softmax",
            Operator::LinearRelu { .. } => "LinearReLU",
            Operator::LinearReluSoftmax { .. } => "LinearReLUSoftmax",
            Operator::Custom { op, .. } => op.name(),
        }
    }

    /// The buffers this operator reads, then the one it writes (always last).
    pub fn buffers(&self) -> Vec<BufferId> {
        match *self {
            Operator::Custom {
                ref inputs, output, ..
            } => inputs.iter().copied().chain([output]).collect(),
            Operator::HostToDevice { from, to } | Operator::DeviceToHost { from, to } => {
                vec![from, to]
            }
            Operator::Relu { input, output } | Operator::Softmax { input, output } => {
                vec![input, output]
            }
            Operator::Linear {
                input,
                weights,
                bias,
                output,
            }
            | Operator::LinearRelu {
                input,
                weights,
                bias,
                output,
            }
            | Operator::LinearReluSoftmax {
                input,
                weights,
                bias,
                output,
            } => {
                vec![input, weights, bias, output]
            }
        }
    }

    pub fn has_softmax(&self) -> bool {
        matches!(
            self,
            Operator::Softmax { .. } | Operator::LinearReluSoftmax { .. }
        )
    }
}
