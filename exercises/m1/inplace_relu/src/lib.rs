//! Exercise: an in-place ReLU, and the validation rule that makes it safe.
//!
//! A graph here is a list of steps in execution order; each reads tensors and writes one new
//! tensor, and a plan says which buffer holds each tensor. An in-place ReLU writes its output
//! into its input's buffer: one buffer fewer, but the input's values are gone afterwards.
//!
//! Given here: the graph, the plan and a CPU executor that honours the plan's aliasing. Your work
//! is in `rule.rs` and `apply.rs`.

mod apply;
mod rule;

pub use apply::apply_in_place;
pub use rule::can_relu_in_place;

pub type TensorId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// `max(x, 0)` elementwise; one input.
    Relu,
    /// `a + b` elementwise; two inputs.
    Add,
    /// `-x` elementwise; one input.
    Neg,
}

#[derive(Clone, Debug)]
pub struct Step {
    pub kind: OpKind,
    pub inputs: Vec<TensorId>,
    pub output: TensorId,
}

/// Steps in execution order; `tensor_len[t]` elements per tensor; inputs and outputs of the graph.
#[derive(Clone, Debug)]
pub struct Graph {
    pub tensor_len: Vec<usize>,
    pub steps: Vec<Step>,
    pub inputs: Vec<TensorId>,
    pub outputs: Vec<TensorId>,
}

/// Which buffer holds each tensor, and which steps run in place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub buffer_of: Vec<usize>,
    pub in_place_steps: Vec<usize>,
}

impl Plan {
    /// One buffer per tensor: the plan without in-place steps.
    pub fn one_buffer_per_tensor(graph: &Graph) -> Self {
        Plan {
            buffer_of: (0..graph.tensor_len.len()).collect(),
            in_place_steps: Vec::new(),
        }
    }

    pub fn buffer_count(&self) -> usize {
        let mut ids = self.buffer_of.clone();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InPlaceError {
    /// There is no step with this index.
    NoSuchStep { step: usize, steps: usize },
}

impl std::fmt::Display for InPlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InPlaceError::NoSuchStep { step, steps } => {
                write!(f, "step {step} does not exist: the graph has {steps} steps")
            }
        }
    }
}

impl std::error::Error for InPlaceError {}

/// Runs the graph on the CPU with the plan's buffers: tensors that share a buffer really share
/// it, so an unsafe in-place step changes the results.
pub fn execute(graph: &Graph, plan: &Plan, inputs: &[Vec<f32>]) -> Vec<Vec<f32>> {
    let buffers_needed = plan.buffer_of.iter().max().map_or(0, |m| m + 1);
    let mut buffers: Vec<Vec<f32>> = vec![Vec::new(); buffers_needed];
    for (tensor, values) in graph.inputs.iter().zip(inputs) {
        buffers[plan.buffer_of[*tensor]] = values.clone();
    }
    for step in &graph.steps {
        let read = |t: TensorId| buffers[plan.buffer_of[t]].clone();
        let out: Vec<f32> = match step.kind {
            OpKind::Relu => read(step.inputs[0]).iter().map(|v| v.max(0.0)).collect(),
            OpKind::Neg => read(step.inputs[0]).iter().map(|v| -v).collect(),
            OpKind::Add => {
                let (a, b) = (read(step.inputs[0]), read(step.inputs[1]));
                a.iter().zip(&b).map(|(x, y)| x + y).collect()
            }
        };
        buffers[plan.buffer_of[step.output]] = out;
    }
    graph
        .outputs
        .iter()
        .map(|t| buffers[plan.buffer_of[*t]].clone())
        .collect()
}
