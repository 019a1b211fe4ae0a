use crate::{Graph, PlanError};

/// For every tensor, the index of the last step that reads it.
///
/// - A graph output stays alive to the end: its last use is `graph.steps.len()`.
/// - A tensor that nobody reads (and that is not an output) dies where it is born: its last use
///   is the step that writes it, or 0 for a graph input.
///
/// Returns the graph's error (see [`Graph::producers`]) for an invalid graph.
pub fn last_uses(_graph: &Graph) -> Result<Vec<usize>, PlanError> {
    todo!("walk the steps and record the last reader of every tensor")
}
