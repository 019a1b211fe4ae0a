use computational_graphs::graph::{BufferId, VerifiedGraph};

use crate::PlanError;

/// For every buffer of the graph, the index of the last node that reads or writes it.
///
/// - `None` for a buffer that no node reads or writes.
/// - A buffer in `keep` stays alive after the last node: its entry is `Some(graph.nodes().len())`.
///
/// Errors: a `keep` entry that is not a buffer index of the graph is
/// [`PlanError::UnknownBuffer`]; one that no node writes and the caller does not fill (its
/// contents are `Contents::Empty`) is [`PlanError::NeverWritten`]. The first bad entry, in
/// `keep` order, is the one reported.
pub fn last_uses(
    _graph: &VerifiedGraph,
    _keep: &[BufferId],
) -> Result<Vec<Option<usize>>, PlanError> {
    todo!("walk the nodes and record, for every buffer, the last node that touches it")
}
