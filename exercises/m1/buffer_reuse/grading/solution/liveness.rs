use computational_graphs::graph::{BufferId, Contents, VerifiedGraph};

use crate::PlanError;

/// For every buffer of the graph, the index of the last node that reads or writes it (solution).
pub fn last_uses(
    graph: &VerifiedGraph,
    keep: &[BufferId],
) -> Result<Vec<Option<usize>>, PlanError> {
    let count = graph.buffers().len();
    let mut last = vec![None; count];
    for (index, node) in graph.nodes().iter().enumerate() {
        for &b in &node.buffers {
            last[b] = Some(index);
        }
    }
    let after_the_run = graph.nodes().len();
    for &b in keep {
        if b >= count {
            return Err(PlanError::UnknownBuffer {
                buffer: b,
                buffers: count,
            });
        }
        let decl = graph.buffer(b);
        if last[b].is_none() && decl.contents == Contents::Empty {
            return Err(PlanError::NeverWritten {
                buffer: b,
                name: decl.name.clone(),
            });
        }
        last[b] = Some(after_the_run);
    }
    Ok(last)
}
