//! Module 1, part 2: computational graphs, GPU compute and a small graph compiler.
//!
//! The crate is laid out in the order the book builds it:
//!
//! 1. [`tensor`]: a CPU 2D tensor and its GPU counterpart;
//! 2. [`ops`]: Linear, ReLU, Softmax and the fused Linear+ReLU(+Softmax), each on the CPU and in WGSL;
//! 3. [`immediate`]: every operator uploads, dispatches and reads back on its own;
//! 4. [`graph`] (the front end): one operator list, validated into verified nodes;
//!    [`backend`]: the CPU and GPU runners and the GPU program they record into;
//! 5. [`compiler`]: the passes (fusion, lowering to op codes, WGSL generation) and running the
//!    result on the back end;
//! 6. [`matmul_ladder`] and [`cpu_matmul`]: how fast can the Linear operator's core get;
//! 7. [`transfers`]: what moving data to and from the device costs, and overlapping it with compute;
//! 8. [`kernel_speed`]: what the exercises' kernel-timing programs share;
//! 9. [`autograd`]: the backward pass of Linear, ReLU and softmax + cross-entropy, for training;
//! 10. [`strided`]: N-D views of one storage (offset, shape, strides): transpose, slice and
//!     broadcast without copies.
//!
//! ```
//! use computational_graphs::{graph, ops, tensor::Tensor2D};
//! let x = Tensor2D::from_rows(&[[1.0, -2.0], [3.0, 4.0]]);
//! let w = Tensor2D::identity(2);
//! let b = Tensor2D::zeros(1, 2);
//! let y = ops::cpu::linear_relu(&x, &w, &b)?;
//! assert_eq!(y.data(), &[1.0, 0.0, 3.0, 4.0]);
//! # let _ = graph::GraphBuilder::new();
//! # Ok::<(), computational_graphs::Error>(())
//! ```

pub mod autograd;
pub mod backend;
pub mod compiler;
pub mod cpu_matmul;
mod error;
pub mod graph;
/// The program both GPU paths run (it lives with the graph it is built from).
pub use graph::gpu_program;
pub mod immediate;
pub mod kernel_source;
pub mod kernel_speed;
pub mod matmul_ladder;
pub mod ops;
pub mod random_graph;
pub mod rng;
pub mod strided;
pub mod tensor;
pub mod transfers;

pub use error::{Error, ShapeError};
