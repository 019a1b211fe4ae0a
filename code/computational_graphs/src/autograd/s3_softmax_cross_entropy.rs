//! Softmax and cross-entropy as one operator, forward and backward.
//!
//! Taken apart, the backward pass would go through softmax's Jacobian `diag(p) − p·pᵀ`, an
//! n×n matrix per sample, after dividing by `p` for the logarithm: where a probability has
//! rounded to 0 that is a division by zero, and the Jacobian costs n² work for a result that
//! simplifies, on paper, to `p − y`. Fused, the forward pass works with the log-sum-exp of the
//! logits (never `ln p`), and the backward pass is one subtraction per element.

use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

/// The forward pass's results: the mean loss, and the probabilities the backward pass needs.
#[derive(Clone, Debug, PartialEq)]
pub struct SoftmaxCrossEntropy {
    pub loss: f32,
    pub probabilities: Tensor2D,
}

// ANCHOR: softmax_cross_entropy
/// The mean over the batch of `−ln softmax(z)[label]`, for logits `z` (m×n, one row per
/// sample) and one label per row.
///
/// `−ln softmax(z)[y] = ln Σ_j e^{z_j} − z_y`, and the log-sum-exp is taken after subtracting
/// the row's maximum: no `exp` overflows and no `ln 0` appears, however confident the logits.
pub fn softmax_cross_entropy(
    logits: &Tensor2D,
    labels: &[usize],
) -> Result<SoftmaxCrossEntropy, Error> {
    check_labels("softmax_cross_entropy", logits.shape(), labels)?;
    let n = logits.cols();
    let mut probabilities = logits.clone();
    let mut total = 0.0f64;
    for (row, &label) in probabilities.data_mut().chunks_exact_mut(n).zip(labels) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = row.iter().map(|z| (z - max).exp()).sum();
        let log_sum_exp = max + sum.ln();
        total += f64::from(log_sum_exp - row[label]);
        for z in row.iter_mut() {
            *z = (*z - log_sum_exp).exp();
        }
    }
    Ok(SoftmaxCrossEntropy {
        loss: (total / labels.len() as f64) as f32,
        probabilities,
    })
}
// ANCHOR_END: softmax_cross_entropy

// ANCHOR: softmax_cross_entropy_backward
/// The gradient of the mean loss with respect to the logits: `(p − y) / m`, where `y` is the
/// one-hot label and `m` the batch size (the mean divides every sample's share by `m`).
pub fn softmax_cross_entropy_backward(
    probabilities: &Tensor2D,
    labels: &[usize],
) -> Result<Tensor2D, Error> {
    check_labels(
        "softmax_cross_entropy_backward",
        probabilities.shape(),
        labels,
    )?;
    let (m, n) = probabilities.shape();
    let mut grad = probabilities.clone();
    for (row, &label) in grad.data_mut().chunks_exact_mut(n).zip(labels) {
        row[label] -= 1.0;
        row.iter_mut().for_each(|g| *g /= m as f32);
    }
    Ok(grad)
}
// ANCHOR_END: softmax_cross_entropy_backward

/// One label per row, each naming one of the columns, and at least one row and column.
fn check_labels(op: &'static str, (m, n): (usize, usize), labels: &[usize]) -> Result<(), Error> {
    if m == 0 || n == 0 {
        let e = ShapeError::Empty {
            what: "the logits",
            shape: (m, n),
        };
        return Err(Error::shape(op, e));
    }
    if labels.len() != m {
        let e = ShapeError::invalid(format!(
            "{} labels for {m} rows of logits: give exactly one label per row",
            labels.len()
        ));
        return Err(Error::shape(op, e));
    }
    if let Some((row, label)) = labels.iter().enumerate().find(|(_, l)| **l >= n) {
        let e = ShapeError::invalid(format!(
            "row {row} has label {label}, but there are only {n} classes: labels go from 0 to {}",
            n - 1
        ));
        return Err(Error::shape(op, e));
    }
    Ok(())
}
