//! The backward pass of ReLU.

use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

// ANCHOR: relu_backward
/// `dX = dY` where the ReLU's input was positive, 0 elsewhere.
///
/// ReLU has no derivative at exactly 0; like PyTorch, this takes 0 there (any value in
/// [0, 1] is a valid subgradient, and 0 keeps a dead unit dead).
pub fn relu_backward(input: &Tensor2D, grad_output: &Tensor2D) -> Result<Tensor2D, Error> {
    if grad_output.shape() != input.shape() {
        let e = ShapeError::Mismatch {
            what: "the output's gradient",
            got: grad_output.shape(),
            expected: input.shape(),
        };
        return Err(Error::shape("relu_backward", e));
    }
    let mut grad = grad_output.clone();
    for (g, &x) in grad.data_mut().iter_mut().zip(input.data()) {
        if x <= 0.0 {
            *g = 0.0;
        }
    }
    Ok(grad)
}
// ANCHOR_END: relu_backward
