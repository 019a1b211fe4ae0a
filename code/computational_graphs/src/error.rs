use std::fmt;

use gpu_context::GpuError;

/// Everything that can go wrong in this crate, each with what to do about it.
#[derive(Debug)]
pub enum Error {
    /// An operator got tensors whose shapes do not fit together.
    Shape { op: &'static str, detail: String },
    /// An operator list broke one of the graph's rules.
    Graph(GraphError),
    /// A kernel cannot take this shape (found before anything is dispatched).
    Unsupported {
        kernel: &'static str,
        detail: String,
    },
    /// The adapter lacks what a kernel needs (a feature, a subgroup size, workgroup memory).
    AdapterLacks {
        kernel: &'static str,
        detail: String,
    },
    /// Setting up or running GPU work failed (includes buffers larger than the device allows).
    Gpu(GpuError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Shape { op, detail } => write!(f, "{op}: {detail}"),
            Error::Graph(e) => write!(f, "invalid graph: {e}"),
            Error::Unsupported { kernel, detail } => {
                write!(
                    f,
                    "the kernel \"{kernel}\" cannot take this shape: {detail}"
                )
            }
            Error::AdapterLacks { kernel, detail } => {
                write!(
                    f,
                    "the kernel \"{kernel}\" cannot run on this adapter: {detail}"
                )
            }
            Error::Gpu(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<GpuError> for Error {
    fn from(e: GpuError) -> Self {
        Error::Gpu(e)
    }
}

impl From<GraphError> for Error {
    fn from(e: GraphError) -> Self {
        Error::Graph(e)
    }
}

impl Error {
    /// The crate's error for an operator (`op`) whose shape rule refused its inputs.
    pub fn shape(op: &'static str, error: ShapeError) -> Self {
        Error::Shape {
            op,
            detail: error.to_string(),
        }
    }
}

// ANCHOR: shape_error
/// Why an operator cannot take inputs of these shapes: what a shape rule such as
/// [`CustomOperator::output_shape`](crate::graph::CustomOperator::output_shape) answers when it
/// says no. Every message says what is wrong and what to do; a rule that none of the named cases
/// fits is [`ShapeError::Invalid`], in the operator's own words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// The operator takes `expected` inputs, described in order by `inputs`, and got `got`.
    #[error(
        "takes {}, {inputs}, but got {got}: pass exactly those, in that order",
        count_inputs(*expected)
    )]
    InputCount {
        expected: usize,
        inputs: &'static str,
        got: usize,
    },
    /// A matrix product `input · weights` whose inner dimensions differ.
    #[error(
        "the input is {}×{} but the weights are {}×{}: the input's columns must equal the \
         weights' rows (give the input {} columns)",
        input.0, input.1, weights.0, weights.1, weights.0
    )]
    InnerDimension {
        input: (usize, usize),
        weights: (usize, usize),
    },
    /// A tensor with no rows or no columns; `what` names it ("the image", "the kernel").
    #[error("{what} is {}×{}: give it at least one row and one column", shape.0, shape.1)]
    Empty {
        what: &'static str,
        shape: (usize, usize),
    },
    /// A tensor whose shape is fixed by the others (a bias, an output buffer).
    #[error("{what} is {}×{} but must be {}×{}", got.0, got.1, expected.0, expected.1)]
    Mismatch {
        what: &'static str,
        got: (usize, usize),
        expected: (usize, usize),
    },
    /// Any other rule, in the operator's own words: what is wrong and what to do.
    #[error("{reason}")]
    Invalid { reason: String },
}

impl ShapeError {
    /// A [`ShapeError::Invalid`] from any text:
    /// `ShapeError::invalid("the stride is 0: use 1 or more")`.
    pub fn invalid(reason: impl Into<String>) -> Self {
        ShapeError::Invalid {
            reason: reason.into(),
        }
    }
}
// ANCHOR_END: shape_error

/// "1 input", "3 inputs".
fn count_inputs(n: usize) -> String {
    if n == 1 {
        "1 input".into()
    } else {
        format!("{n} inputs")
    }
}

/// The rules an operator list must keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Every buffer index must name a declared buffer.
    UnknownBuffer,
    /// Shapes must fit: input columns = weight rows, bias 1×n, output shapes as computed.
    ShapeMismatch,
    /// Softmax ends the network: only DeviceToHost transfers may follow it.
    SoftmaxNotLast,
    /// Kernels touch device buffers only; host data crosses with HostToDevice/DeviceToHost,
    /// and a graph must send at least one result back to the host.
    MissingTransfer,
    /// A buffer must be written (or be an input or parameter) before it is read.
    ReadBeforeWrite,
    /// Each buffer has exactly one writer.
    TwoWriters,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::UnknownBuffer => "unknown buffer",
            Rule::ShapeMismatch => "shape mismatch",
            Rule::SoftmaxNotLast => "softmax must be last",
            Rule::MissingTransfer => "missing transfer",
            Rule::ReadBeforeWrite => "read of a buffer nobody wrote",
            Rule::TwoWriters => "two writers of one buffer",
        })
    }
}

// ANCHOR: graph_error
/// An invalid graph: which node, which rule, and what exactly is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError {
    pub node: usize,
    pub operator: &'static str,
    pub rule: Rule,
    pub detail: String,
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "node {} ({}) breaks the rule \"{}\": {}",
            self.node, self.operator, self.rule, self.detail
        )
    }
}
// ANCHOR_END: graph_error

impl std::error::Error for GraphError {}
