//! Exercise: reusable buffers in a computational graph.
//!
//! A graph here is a list of steps in execution order. Each step reads some tensors and writes
//! one new tensor. Tensors that no step writes are the graph's inputs. Without reuse, every tensor
//! gets its own buffer; with a liveness analysis, a buffer whose tensor is dead can hold a later
//! tensor, and the peak buffer memory drops.
//!
//! Your work is in `liveness.rs` and `plan.rs`. This file is given.

mod liveness;
mod plan;

pub use liveness::last_uses;
pub use plan::plan_buffers;

/// Index of a tensor in [`Graph::tensor_bytes`].
pub type TensorId = usize;

/// One operation: reads `inputs`, writes `output`.
#[derive(Clone, Debug)]
pub struct Step {
    pub name: String,
    pub inputs: Vec<TensorId>,
    pub output: TensorId,
}

/// Steps in execution order, the size of every tensor, and which tensors the caller reads back.
#[derive(Clone, Debug)]
pub struct Graph {
    pub tensor_bytes: Vec<u64>,
    pub steps: Vec<Step>,
    pub outputs: Vec<TensorId>,
}

/// Which buffer holds each tensor, and how big each buffer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferPlan {
    /// `buffer_of[t]` is the buffer that holds tensor `t`.
    pub buffer_of: Vec<usize>,
    /// `buffer_bytes[b]` is the size of buffer `b`.
    pub buffer_bytes: Vec<u64>,
}

impl BufferPlan {
    /// Peak buffer memory: every buffer exists for the whole run.
    pub fn peak_bytes(&self) -> u64 {
        self.buffer_bytes.iter().sum()
    }
}

/// What makes a graph impossible to plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// A step names a tensor that does not exist.
    UnknownTensor { step: usize, tensor: TensorId },
    /// A step reads a tensor that a later step writes.
    UseBeforeDefinition { step: usize, tensor: TensorId },
    /// Two steps write the same tensor (or a step writes a graph input twice).
    WrittenTwice { step: usize, tensor: TensorId },
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::UnknownTensor { step, tensor } => write!(
                f,
                "step {step} names tensor {tensor}, which does not exist: add it to tensor_bytes"
            ),
            PlanError::UseBeforeDefinition { step, tensor } => write!(
                f,
                "step {step} reads tensor {tensor} before the step that writes it: reorder the steps"
            ),
            PlanError::WrittenTwice { step, tensor } => write!(
                f,
                "step {step} writes tensor {tensor}, which is already written: give it a new tensor"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

impl Graph {
    /// The step that writes each tensor, or `None` for graph inputs; checks the graph on the way.
    pub fn producers(&self) -> Result<Vec<Option<usize>>, PlanError> {
        let count = self.tensor_bytes.len();
        let mut producer = vec![None; count];
        for (index, step) in self.steps.iter().enumerate() {
            for &tensor in step.inputs.iter().chain([&step.output]) {
                if tensor >= count {
                    return Err(PlanError::UnknownTensor {
                        step: index,
                        tensor,
                    });
                }
            }
            if producer[step.output].is_some() {
                return Err(PlanError::WrittenTwice {
                    step: index,
                    tensor: step.output,
                });
            }
            producer[step.output] = Some(index);
        }
        for (index, step) in self.steps.iter().enumerate() {
            for &tensor in &step.inputs {
                if let Some(p) = producer[tensor]
                    && p >= index
                {
                    return Err(PlanError::UseBeforeDefinition {
                        step: index,
                        tensor,
                    });
                }
            }
        }
        Ok(producer)
    }

    /// Peak buffer memory without reuse: one buffer per tensor.
    pub fn naive_peak_bytes(&self) -> u64 {
        self.tensor_bytes.iter().sum()
    }
}
