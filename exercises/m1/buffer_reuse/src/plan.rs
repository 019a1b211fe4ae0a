use crate::{BufferPlan, Graph, PlanError};

/// Assigns every tensor to a buffer, reusing the buffers of dead tensors.
///
/// The rule (README.md has it in full): graph inputs are allocated first, in tensor order; then,
/// for each step in order, its output is allocated, and only after that every tensor whose last
/// use is this step is freed (graph outputs are never freed). Allocating picks the smallest free
/// buffer that is large enough (ties: the lowest buffer index), or makes a new buffer exactly the
/// tensor's size.
pub fn plan_buffers(_graph: &Graph) -> Result<BufferPlan, PlanError> {
    todo!("allocate with best fit, free after each step's last uses")
}
