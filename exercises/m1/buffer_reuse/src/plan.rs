use computational_graphs::graph::{BufferId, VerifiedGraph};

use crate::{BufferPlan, PlanError};

/// Places every device buffer that a node uses in an allocation, letting device intermediates
/// whose lives do not overlap share one. The rule, exactly (README.md explains it):
///
/// 1. A buffer is *shareable* if it is on the device, its contents are `Contents::Empty` (a node
///    writes it), and no DeviceToHost node reads it.
/// 2. First, every other device buffer that a node uses gets an allocation of its own, exactly
///    its size, in buffer order. Host buffers and unused buffers get `None`.
/// 3. Then, for each node in order: if its output is shareable, allocate it (the smallest free
///    allocation that is large enough, ties to the lowest allocation index; if none fits, a new
///    allocation of exactly its size); *then* free the allocation of every shareable buffer whose
///    last use (see [`crate::last_uses`]) is this node.
///
/// `keep` needs nothing of its own here: a kept buffer's last use is after the last node, so its
/// allocation is never freed. Errors: those of [`crate::last_uses`] for a bad `keep` list.
pub fn plan_buffers(_graph: &VerifiedGraph, _keep: &[BufferId]) -> Result<BufferPlan, PlanError> {
    todo!("liveness first, then best-fit allocation, freeing after each node's allocation")
}
