//! Gradients for the network the graph runs: the backward pass of Linear, ReLU and a fused
//! softmax + cross-entropy loss, a tape that replays a chain of layers in reverse, and the
//! finite-difference check that keeps every gradient honest.
//!
//! 1. [`s1_linear`]: `Y = X·W + b` gives `dX = dY·Wᵀ`, `dW = Xᵀ·dY`, `db` = column sums of `dY`;
//! 2. [`s2_relu`]: the gradient passes where the input was positive and stops elsewhere;
//! 3. [`s3_softmax_cross_entropy`]: the loss and its gradient `(p − y) / batch`, fused;
//! 4. [`tape`]: a [`Sequential`] chain whose forward pass records what the backward pass needs;
//! 5. [`finite_difference`]: numerical gradients to test the four above against.
//!
//! ```
//! use computational_graphs::autograd::{Layer, Sequential};
//! use computational_graphs::tensor::Tensor2D;
//! let net = Sequential::new(vec![
//!     Layer::linear(Tensor2D::identity(2), Tensor2D::zeros(1, 2))?,
//!     Layer::Relu,
//! ]);
//! let x = Tensor2D::from_rows(&[[2.0, -1.0]]);
//! let (loss, tape) = net.forward_loss(&x, &[0])?;
//! let grads = net.backward(&tape)?;
//! // Class 0 is already the more likely one, so its logit's gradient is negative (p − 1 < 0).
//! assert!(loss < std::f32::consts::LN_2);
//! assert!(grads.layers[0].as_ref().unwrap().weights.get(0, 0) < 0.0);
//! # Ok::<(), computational_graphs::Error>(())
//! ```

pub mod finite_difference;
pub mod s1_linear;
pub mod s2_relu;
pub mod s3_softmax_cross_entropy;
pub mod tape;

pub use s1_linear::{LinearGrads, linear_backward};
pub use s2_relu::relu_backward;
pub use s3_softmax_cross_entropy::{softmax_cross_entropy, softmax_cross_entropy_backward};
pub use tape::{Gradients, Layer, Sequential, Tape};
