use crate::{Graph, InPlaceError, OpKind};

/// Whether step `step` may write its output into its input's buffer (solution).
pub fn can_relu_in_place(graph: &Graph, step: usize) -> Result<bool, InPlaceError> {
    let Some(s) = graph.steps.get(step) else {
        return Err(InPlaceError::NoSuchStep {
            step,
            steps: graph.steps.len(),
        });
    };
    if s.kind != OpKind::Relu || s.inputs.len() != 1 {
        return Ok(false);
    }
    let input = s.inputs[0];
    let caller_owned = graph.inputs.contains(&input) || graph.outputs.contains(&input);
    let read_later = graph.steps[step + 1..]
        .iter()
        .any(|later| later.inputs.contains(&input));
    let same_size = graph.tensor_len[input] == graph.tensor_len[s.output];
    Ok(!caller_owned && !read_later && same_size)
}
