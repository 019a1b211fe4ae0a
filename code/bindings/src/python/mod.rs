//! Python with PyO3: the module `bindings`, built by `maturin develop` (see `pyproject.toml`) or
//! registered in an embedded interpreter ([`crate::embedded`]). PyO3 writes the C entry point
//! `PyInit_bindings` and converts arguments and results; each function stays a thin layer over
//! the Rust it calls.

mod float32_buffer;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use realtime::rules::batching;

use crate::LengthMismatch;
pub use float32_buffer::Float32Buffer;

// ANCHOR: per_element
/// `scale_one(x, gain)`: one sample per call, so Python pays a whole call for one multiply.
#[pyfunction]
fn scale_one(x: f32, gain: f32) -> f32 {
    batching::scale_one(x, gain)
}
// ANCHOR_END: per_element

// ANCHOR: batched_list
/// `scale_list(frame, gain)`: one call per frame, but every sample is converted from a Python
/// float on the way in and to a new one on the way out.
#[pyfunction]
fn scale_list(frame: Vec<f32>, gain: f32) -> Vec<f32> {
    let mut out = vec![0.0; frame.len()];
    batching::scale_frame(&frame, gain, &mut out);
    out
}
// ANCHOR_END: batched_list

// ANCHOR: batched_buffer
/// `scale_into(frame, gain, out)`: `frame` and `out` are float32 buffers (`array.array("f")`,
/// a NumPy `float32` array, ...), so no Python float is made. The samples are copied once each
/// way, which keeps this safe even if Python code holds other views of the same memory.
#[pyfunction]
fn scale_into(py: Python<'_>, frame: Float32Buffer, gain: f32, out: Float32Buffer) -> PyResult<()> {
    let input = frame.to_vec(py)?;
    let mut scaled = vec![0.0; out.len()];
    LengthMismatch::check(&input, &scaled)?;
    batching::scale_frame(&input, gain, &mut scaled);
    out.copy_from_slice(py, &scaled)
}
// ANCHOR_END: batched_buffer

impl From<LengthMismatch> for PyErr {
    fn from(e: LengthMismatch) -> Self {
        PyValueError::new_err(e.to_string())
    }
}

// ANCHOR: module
/// The module Python imports as `bindings`.
#[pymodule]
pub fn bindings(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(scale_one, m)?)?;
    m.add_function(wrap_pyfunction!(scale_list, m)?)?;
    m.add_function(wrap_pyfunction!(scale_into, m)?)?;
    Ok(())
}
// ANCHOR_END: module
