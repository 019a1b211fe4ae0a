//! Module 5: the course's Rust called from Python and from C++, and what each call costs.
//!
//! The function crossing the boundary is module 5's own gain stage,
//! [`realtime::rules::batching::scale_one`] (one sample) and
//! [`realtime::rules::batching::scale_frame`] (a whole frame), used as they are:
//!
//! - [`python`]: a Python extension module (PyO3; `maturin develop` builds and installs it) with
//!   a per-sample function and two batched ones, a list and a buffer;
//! - [`cpp`]: a `cxx` bridge whose C++ side calls the Rust functions per sample or per frame;
//! - [`embedded`]: a Python interpreter started inside a Rust program with the module importable,
//!   so that Rust tests (and the figure program) run real Python code against it;
//! - [`call_cost`]: ns per sample for each way across, per element and batched.

pub mod call_cost;
pub mod cpp;
pub mod embedded;
pub mod python;

/// An output slice that does not match its input: the boundary functions refuse it rather than
/// write past the end (C++) or silently leave samples unscaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the output holds {out} samples but the input has {input}: pass an output as long as the input"
)]
pub struct LengthMismatch {
    pub input: usize,
    pub out: usize,
}

impl LengthMismatch {
    pub(crate) fn check(input: &[f32], out: &[f32]) -> Result<(), Self> {
        if input.len() == out.len() {
            Ok(())
        } else {
            Err(Self {
                input: input.len(),
                out: out.len(),
            })
        }
    }
}
