//! The Python module as Python sees it: an interpreter embedded in this test process imports
//! `bindings`, and every function's result is compared with the Rust it wraps.

use std::ffi::CStr;

use bindings::call_cost::{GAIN, expected, frame};
use bindings::embedded;
use pyo3::prelude::*;

/// Python functions the tests call: each returns what the module computed, or the error text.
const CALLS: &CStr = cr#"
import array
import bindings

def per_element(xs, gain):
    return [bindings.scale_one(x, gain) for x in xs]

def as_list(xs, gain):
    return bindings.scale_list(xs, gain)

def into_buffer(xs, gain):
    out = array.array("f", [0.0] * len(xs))
    bindings.scale_into(array.array("f", xs), gain, out)
    return out.tolist()

def error_of(call):
    try:
        call()
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return "no error"

def wrong_lengths():
    return error_of(lambda: bindings.scale_into(array.array("f", [1.0, 2.0]), 2.0, array.array("f", [0.0])))

def doubles_not_floats():
    return error_of(lambda: bindings.scale_into(array.array("d", [1.0]), 2.0, array.array("f", [0.0])))

def read_only_output():
    return error_of(lambda: bindings.scale_into(array.array("f", [1.0]), 2.0, memoryview(array.array("f", [0.0])).toreadonly()))

def a_string_for_a_list():
    return error_of(lambda: bindings.scale_list("1.0", 2.0))
"#;

fn with_calls<R>(f: impl for<'py> FnOnce(&Bound<'py, PyModule>) -> PyResult<R>) -> R {
    embedded::start();
    Python::attach(|py| {
        let calls = embedded::load(py, CALLS, c"calls").expect("the test's Python code loads");
        f(&calls).expect("the Python calls run")
    })
}

fn scaled_by(function: &str, input: &[f32]) -> Vec<f32> {
    with_calls(|calls| {
        calls
            .getattr(function)?
            .call1((input.to_vec(), GAIN))?
            .extract()
    })
}

fn error_text(function: &str) -> String {
    with_calls(|calls| calls.getattr(function)?.call0()?.extract())
}

#[test]
fn a_call_per_sample_computes_what_rust_computes() {
    let input = frame(300);
    assert_eq!(scaled_by("per_element", &input), expected(&input));
}

#[test]
fn a_list_per_call_computes_what_rust_computes() {
    let input = frame(300);
    assert_eq!(scaled_by("as_list", &input), expected(&input));
}

#[test]
fn a_buffer_per_call_computes_what_rust_computes() {
    let input = frame(300);
    assert_eq!(scaled_by("into_buffer", &input), expected(&input));
}

#[test]
fn an_empty_frame_gives_an_empty_frame() {
    for function in ["per_element", "as_list", "into_buffer"] {
        assert!(scaled_by(function, &[]).is_empty(), "{function}");
    }
}

#[test]
fn an_output_of_another_length_is_a_value_error_that_names_both_lengths() {
    let text = error_text("wrong_lengths");
    assert!(text.starts_with("ValueError:"), "{text}");
    assert!(
        text.contains("holds 1 samples but the input has 2"),
        "{text}"
    );
}

#[test]
fn a_buffer_of_doubles_is_refused() {
    let text = error_text("doubles_not_floats");
    assert!(text.contains("f32"), "{text}");
}

#[test]
fn a_read_only_output_is_refused() {
    let text = error_text("read_only_output");
    assert!(text.contains("read-only"), "{text}");
}

#[test]
fn a_string_is_not_taken_for_a_list_of_samples() {
    let text = error_text("a_string_for_a_list");
    assert!(text.starts_with("TypeError:"), "{text}");
}
