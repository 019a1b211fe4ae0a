use crate::{Graph, PlanError};

/// For every tensor, the index of the last step that reads it (solution).
pub fn last_uses(graph: &Graph) -> Result<Vec<usize>, PlanError> {
    let producers = graph.producers()?;
    // Born-and-dead by default: the producing step, or 0 for an input.
    let mut last: Vec<usize> = producers.iter().map(|p| p.unwrap_or(0)).collect();
    for (index, step) in graph.steps.iter().enumerate() {
        for &tensor in &step.inputs {
            last[tensor] = last[tensor].max(index);
        }
    }
    for &output in &graph.outputs {
        last[output] = graph.steps.len();
    }
    Ok(last)
}
