use computational_graphs::graph::{Contents, NodeKind, VerifiedGraph};

use crate::InPlaceError;

/// Whether node `node` may write its output over its input (solution).
pub fn check_in_place(graph: &VerifiedGraph, node: usize) -> Result<(), InPlaceError> {
    let nodes = graph.nodes();
    let Some(relu) = nodes.get(node) else {
        return Err(InPlaceError::NoSuchNode {
            node,
            nodes: nodes.len(),
        });
    };
    if relu.kind != NodeKind::Relu {
        return Err(InPlaceError::NotRelu {
            node,
            kind: relu.kind.clone(),
        });
    }
    let input = relu.reads()[0];
    let name = graph.buffer(input).name.clone();
    match graph.buffer(input).contents {
        Contents::Parameter(_) => {
            return Err(InPlaceError::InputIsParameter { node, input, name });
        }
        Contents::Input => {
            return Err(InPlaceError::InputIsCallerInput { node, input, name });
        }
        Contents::Empty => {}
    }
    // Wrong on purpose: a node that reads the input later is not looked for.
    let later: Option<usize> = None;
    match later {
        Some(offset) => Err(InPlaceError::ReadLater {
            node,
            input,
            name,
            reader: node + 1 + offset,
        }),
        None => Ok(()),
    }
}
