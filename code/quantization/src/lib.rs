//! Module 3, part 2: quantization, sparsity and pruning, as operators of the course's graphs.
//!
//! 1. [`affine`] and [`fake_quant`]: the map between reals and b-bit integers, per tensor or
//!    per channel, and how a range is calibrated;
//! 2. [`int8`] and [`group4`]: packed int8 arithmetic with i32 sums, 4-bit group quantization;
//! 3. [`prune`] and [`sparse`]: magnitude, structured and 2:4 pruning; CSR and 2:4 layouts;
//! 4. [`ops`]: quantized and sparse Linear layers as `graph::CustomOperator`s (CPU + WGSL);
//! 5. [`model`]: a tiny spiral classifier trained here, its weights in safetensors;
//! 6. [`gemm`] and [`energy`]: GPU GEMM kernels for f32, f16 and int8, and joules per inference;
//! 7. [`specialisations`]: small formats of real-time graphics and their errors;
//! 8. [`noise`], [`weight_schemes`], [`qat`] and [`gptq`]: the step²/12 noise model against
//!    measurement, whole-model weight quantization scheme by scheme with its bytes per weight,
//!    quantization-aware fine-tuning with the straight-through estimator, and GPTQ's rounding
//!    with error compensation; [`outliers`]: an int8 product with one outlier input channel,
//!    per tensor, per token, with SmoothQuant and with the outlier split out;
//! 9. [`lenet`]: LeNet-5 written out (im2col convolutions), its parameters, bytes and FLOPs.
//! 10. [`rapl`]: CPU package energy from Linux's powercap (RAPL) counters, where readable.

pub mod affine;
pub mod coop_matrix;
pub mod energy;
mod error;
pub mod fake_quant;
pub mod gemm;
pub mod gptq;
pub mod group4;
pub mod int8;
pub mod lenet;
pub mod model;
pub mod noise;
pub mod ops;
pub mod outliers;
pub mod prune;
pub mod qat;
pub mod rapl;
pub mod sparse;
pub mod specialisations;
pub mod weight_schemes;

pub use error::QuantError;
