//! Numerical gradients: the slow, obviously right answer that analytic gradients are tested
//! against.

use crate::Error;
use crate::tensor::Tensor2D;

// ANCHOR: central_difference
/// The gradient of a scalar function `loss` at `at`, one element at a time, by central
/// differences: `(L(x + ε) − L(x − ε)) / 2ε`, whose error shrinks with ε² (a one-sided
/// difference's only with ε).
///
/// In f32, `x + ε` is rounded, so the step divides by the distance actually taken. Rounding in
/// `loss` adds an error of about (rounding of L) / ε: ε is a compromise, and the tests derive
/// their tolerance from it.
pub fn central_difference(
    at: &Tensor2D,
    eps: f32,
    mut loss: impl FnMut(&Tensor2D) -> Result<f64, Error>,
) -> Result<Tensor2D, Error> {
    let mut grad = Tensor2D::zeros(at.rows(), at.cols());
    let mut probe = at.clone();
    for i in 0..at.data().len() {
        let x = at.data()[i];
        let (up, down) = (x + eps, x - eps);
        probe.data_mut()[i] = up;
        let l_up = loss(&probe)?;
        probe.data_mut()[i] = down;
        let l_down = loss(&probe)?;
        probe.data_mut()[i] = x;
        grad.data_mut()[i] = ((l_up - l_down) / f64::from(up - down)) as f32;
    }
    Ok(grad)
}
// ANCHOR_END: central_difference
