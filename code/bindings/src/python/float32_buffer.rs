//! A float32 buffer lent by Python (`array.array("f")`, a NumPy `float32` array, a `memoryview`
//! of either), read and written by copying, so no `unsafe` is needed.

use pyo3::buffer::{Element, PyBuffer, PyUntypedBuffer};
use pyo3::prelude::*;

/// `None` for an empty buffer: an empty `array.array` lends a pointer to a shared empty string,
/// which is not aligned for `f32`, so PyO3's typed view refuses it although it holds nothing.
pub struct Float32Buffer(Option<PyBuffer<f32>>);

impl FromPyObject<'_, '_> for Float32Buffer {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, '_, PyAny>) -> PyResult<Self> {
        let raw = PyUntypedBuffer::get(&obj)?;
        let is_float32 = raw.item_size() == 4 && f32::is_compatible_format(raw.format());
        if raw.item_count() == 0 && is_float32 {
            return Ok(Self(None));
        }
        // Refuses other formats ("buffer contents are not compatible with f32").
        raw.into_typed().map(|typed| Self(Some(typed)))
    }
}

impl Float32Buffer {
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |b| b.item_count())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The samples, copied out.
    pub fn to_vec(&self, py: Python<'_>) -> PyResult<Vec<f32>> {
        self.0.as_ref().map_or(Ok(Vec::new()), |b| b.to_vec(py))
    }

    /// Overwrites the samples; a read-only buffer is refused ("cannot write to read-only buffer").
    pub fn copy_from_slice(&self, py: Python<'_>, samples: &[f32]) -> PyResult<()> {
        match &self.0 {
            Some(b) => b.copy_from_slice(py, samples),
            None => Ok(()),
        }
    }
}
