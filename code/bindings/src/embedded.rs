//! Python inside a Rust program: the tests and the figure program start an interpreter in their
//! own process, with the `bindings` module built in, and run Python source against it. This
//! tests the module exactly as Python sees it, with no wheel and no `pip install`.

use std::ffi::CStr;
use std::sync::Once;

use pyo3::prelude::*;

use crate::python::bindings;

static START: Once = Once::new();

/// Starts the interpreter once per process, with `import bindings` available. Call it before
/// any other use of Python in the process (a module can only be added before start-up).
pub fn start() {
    START.call_once(|| {
        // ANCHOR: inittab
        pyo3::append_to_inittab!(bindings);
        Python::initialize();
        // ANCHOR_END: inittab
    });
}

/// Runs `source` as a module named `name` (it may `import bindings`) and returns it, so its
/// functions can be called from Rust.
pub fn load<'py>(py: Python<'py>, source: &CStr, name: &CStr) -> PyResult<Bound<'py, PyModule>> {
    PyModule::from_code(py, source, c"<bindings embedded>", name)
}

/// The interpreter's implementation and version, for the figure's notes. Not its install path:
/// that names a folder of the measuring machine, which tells a reader nothing.
pub fn python_version(py: Python<'_>) -> PyResult<String> {
    let sys = py.import("sys")?;
    let version: String = sys.getattr("version")?.extract()?;
    let implementation: String = py
        .import("platform")?
        .call_method0("python_implementation")?
        .extract()?;
    Ok(format!("{implementation} {}", version.replace('\n', " ")))
}
