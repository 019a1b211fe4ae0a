//! The backward pass of `Y = X·W + b`.

use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

/// The gradients of the loss with respect to a Linear layer's three inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearGrads {
    /// `dX`, m×k: what flows on to the layer before.
    pub input: Tensor2D,
    /// `dW`, k×n.
    pub weights: Tensor2D,
    /// `db`, 1×n.
    pub bias: Tensor2D,
}

/// Given `dY` (m×n), the gradient of the loss with respect to the output of
/// `input · weights + bias` (input m×k, weights k×n), returns `dX`, `dW` and `db`.
///
/// Each output element `Y[i][j] = Σ_p X[i][p]·W[p][j] + b[j]` touches `X[i][p]` through
/// `W[p][j]` and `W[p][j]` through `X[i][p]`; summing those paths gives two matrix products,
/// and the bias, added to every row, collects the gradient of every row.
pub fn linear_backward(
    input: &Tensor2D,
    weights: &Tensor2D,
    grad_output: &Tensor2D,
) -> Result<LinearGrads, Error> {
    const OP: &str = "linear_backward";
    let (m, k) = input.shape();
    if weights.rows() != k {
        let e = ShapeError::InnerDimension {
            input: input.shape(),
            weights: weights.shape(),
        };
        return Err(Error::shape(OP, e));
    }
    let n = weights.cols();
    if grad_output.shape() != (m, n) {
        let e = ShapeError::Mismatch {
            what: "the output's gradient",
            got: grad_output.shape(),
            expected: (m, n),
        };
        return Err(Error::shape(OP, e));
    }
    // ANCHOR: linear_backward
    let (x, w, dy) = (input.data(), weights.data(), grad_output.data());
    let mut dx = Tensor2D::zeros(m, k);
    let mut dw = Tensor2D::zeros(k, n);
    let mut db = Tensor2D::zeros(1, n);
    for i in 0..m {
        let dy_row = &dy[i * n..(i + 1) * n];
        // dX = dY · Wᵀ: row i of dX is row i of dY dotted with each row of W.
        for (p, dx_ip) in dx.data_mut()[i * k..(i + 1) * k].iter_mut().enumerate() {
            let w_row = &w[p * n..(p + 1) * n];
            *dx_ip = dy_row.iter().zip(w_row).map(|(a, b)| a * b).sum();
        }
        // dW = Xᵀ · dY, as a sum of outer products: row i adds X[i][p]·dY[i][..] to dW's row p.
        for p in 0..k {
            let x_ip = x[i * k + p];
            let dw_row = &mut dw.data_mut()[p * n..(p + 1) * n];
            for (g, d) in dw_row.iter_mut().zip(dy_row) {
                *g += x_ip * d;
            }
        }
        for (g, d) in db.data_mut().iter_mut().zip(dy_row) {
            *g += d;
        }
    }
    // ANCHOR_END: linear_backward
    Ok(LinearGrads {
        input: dx,
        weights: dw,
        bias: db,
    })
}
