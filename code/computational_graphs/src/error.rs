use std::fmt;

use gpu_context::GpuError;

use crate::graph::GraphError;

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
