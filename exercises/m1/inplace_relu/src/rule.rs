use crate::{Graph, InPlaceError};

/// Whether step `step` may write its output into its input's buffer.
///
/// It may only if it is a ReLU and its input tensor is not a graph input, not a graph output,
/// not read by any later step, and as long as the output. `Err` for a step that does not exist.
pub fn can_relu_in_place(_graph: &Graph, _step: usize) -> Result<bool, InPlaceError> {
    todo!("the four checks of the rule")
}
