//! Operators defined outside this crate.
//!
//! [`super::Operator`] is a closed enum: the runners, the validator and the compiler know every
//! case. A reader who wants a new operator (max pooling, a convolution, …) should not have to
//! edit all of them, so a graph may also hold a [`CustomOperator`]: a shape rule, a CPU
//! implementation and a WGSL kernel behind one trait. Validation, both runners and the op-code
//! compiler treat it as an opaque node (nothing is fused into it). How the back end runs one is
//! in `backend/custom_run.rs`.

use std::fmt;
use std::sync::Arc;

use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

// ANCHOR: custom_operator
/// A new operator: what shape it produces, how it runs on the CPU, and the kernel that runs it
/// on the GPU. The graph calls these with tensors whose shapes already passed `output_shape`.
pub trait CustomOperator: Send + Sync + 'static {
    /// A short name for errors and traces, e.g. `"MaxPool"`.
    fn name(&self) -> &'static str;

    /// The output's (rows, cols) for inputs of these shapes, or what is wrong with them.
    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError>;

    /// The CPU implementation: the reference every GPU result is compared with.
    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error>;

    /// The GPU kernel for these shapes.
    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        output: (usize, usize),
    ) -> Result<CustomKernel, Error>;
}

/// A WGSL kernel and how to launch it. Bindings, all in group 0: `@binding(0)` is
/// `params` (read-only storage, `array<u32>`), then one read-only storage buffer per input in
/// order, then the output (`read_write`) last — the same layout as the crate's own kernels.
#[derive(Clone, Debug)]
pub struct CustomKernel {
    pub source: String,
    pub entry_point: &'static str,
    /// Whatever numbers the kernel needs (sizes, window, stride); at least one.
    pub params: Vec<u32>,
    pub workgroups: [u32; 3],
}
// ANCHOR_END: custom_operator

/// A shared handle to a custom operator, as stored in operator lists and verified nodes.
/// Two handles are equal when they point at the same operator object.
#[derive(Clone)]
pub struct Custom(pub Arc<dyn CustomOperator>);

impl Custom {
    pub fn new(op: impl CustomOperator) -> Self {
        Custom(Arc::new(op))
    }

    pub fn name(&self) -> &'static str {
        self.0.name()
    }
}

impl fmt::Debug for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Custom({})", self.0.name())
    }
}

impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        // Compare the data pointers only: vtable pointers of one type may differ per crate.
        std::ptr::addr_eq(Arc::as_ptr(&self.0), Arc::as_ptr(&other.0))
    }
}

impl Eq for Custom {}

impl std::hash::Hash for Custom {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (Arc::as_ptr(&self.0) as *const () as usize).hash(state);
    }
}
