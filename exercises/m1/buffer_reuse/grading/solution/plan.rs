use crate::{BufferPlan, Graph, PlanError, last_uses};

/// Assigns every tensor to a buffer, reusing the buffers of dead tensors (solution).
pub fn plan_buffers(graph: &Graph) -> Result<BufferPlan, PlanError> {
    let producers = graph.producers()?;
    let last = last_uses(graph)?;
    let mut plan = BufferPlan {
        buffer_of: vec![usize::MAX; graph.tensor_bytes.len()],
        buffer_bytes: Vec::new(),
    };
    let mut free: Vec<usize> = Vec::new();
    let allocate = |plan: &mut BufferPlan, free: &mut Vec<usize>, tensor: usize| {
        let bytes = graph.tensor_bytes[tensor];
        let best = free
            .iter()
            .enumerate()
            .filter(|&(_, &b)| plan.buffer_bytes[b] >= bytes)
            .min_by_key(|&(_, &b)| (plan.buffer_bytes[b], b))
            .map(|(slot, _)| slot);
        plan.buffer_of[tensor] = match best {
            Some(slot) => free.swap_remove(slot),
            None => {
                plan.buffer_bytes.push(bytes);
                plan.buffer_bytes.len() - 1
            }
        };
    };
    for tensor in 0..graph.tensor_bytes.len() {
        if producers[tensor].is_none() {
            allocate(&mut plan, &mut free, tensor);
        }
    }
    for (index, step) in graph.steps.iter().enumerate() {
        allocate(&mut plan, &mut free, step.output);
        for tensor in 0..graph.tensor_bytes.len() {
            let allocated = plan.buffer_of[tensor] != usize::MAX;
            if allocated && last[tensor] == index && !graph.outputs.contains(&tensor) {
                free.push(plan.buffer_of[tensor]);
            }
        }
    }
    Ok(plan)
}
