//! Chapter 3, float precision beyond sums: cancellation, conditioning, variance, and why one f32
//! accumulator stops counting at 2^24.

pub mod accumulation;
pub mod cancellation;
pub mod conditioning;
pub mod variance;
