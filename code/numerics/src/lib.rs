//! Module 3, part one: the numbers a computer holds and what they cost.
//!
//! - [`floats`]: the fields of f64, f32, f16, bf16 and FP8; subnormals, NaN, rounding, spacing;
//! - [`summation`]: naive, pairwise, Kahan and Neumaier sums, and what reduction order does;
//! - [`precision`]: cancellation, condition numbers, Welford's variance, the f32 counter at 2^24;
//! - [`gpu_dot`]: a WGSL dot product with f16 storage, accumulated in f32 or f16;
//! - [`bit_tricks`]: the fast inverse square root, popcount, powers of two, Morton codes;
//! - [`integers`]: overflow, `as`, Q16.16 fixed point, division, integer keys;
//! - [`compression`]: delta, zigzag, varint, bit-packing and run-length, beside LZ4.

pub mod bit_tricks;
pub mod compression;
pub mod floats;
pub mod gpu_dot;
pub mod integers;
pub mod precision;
pub mod summation;
