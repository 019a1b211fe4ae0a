//! C++ with `cxx`: one bridge declares what each language exports to the other, and both sides
//! are generated from it and checked against each other at build time. Here C++ owns the loops
//! (as a C++ host program would) and calls the course's Rust per sample or once per frame.

use realtime::rules::batching::{scale_frame, scale_one};

use crate::LengthMismatch;

// ANCHOR: bridge
#[cxx::bridge(namespace = "bindings")]
mod ffi {
    // Rust functions C++ may call: `&[f32]` arrives as `rust::Slice<const float>`, no copy.
    extern "Rust" {
        fn scale_one(x: f32, gain: f32) -> f32;
        fn scale_frame(input: &[f32], gain: f32, out: &mut [f32]);
    }

    // C++ functions Rust may call, declared in the header that `build.rs` compiles against.
    unsafe extern "C++" {
        include!("bindings/src/cpp/gain_loops.h");
        fn scale_per_element_in_cpp(input: &[f32], gain: f32, out: &mut [f32]);
        fn scale_per_element_hoisted_in_cpp(input: &[f32], gain: f32, out: &mut [f32]);
        fn scale_batched_in_cpp(input: &[f32], gain: f32, out: &mut [f32]);
    }
}
// ANCHOR_END: bridge

/// C++ loops over the frame and calls Rust's `scale_one` for every sample.
pub fn per_element_from_cpp(
    input: &[f32],
    gain: f32,
    out: &mut [f32],
) -> Result<(), LengthMismatch> {
    LengthMismatch::check(input, out)?;
    ffi::scale_per_element_in_cpp(input, gain, out);
    Ok(())
}

/// The same C++ loop with the slices' data pointers taken once, so only the call into Rust is
/// left per sample.
pub fn per_element_hoisted_from_cpp(
    input: &[f32],
    gain: f32,
    out: &mut [f32],
) -> Result<(), LengthMismatch> {
    LengthMismatch::check(input, out)?;
    ffi::scale_per_element_hoisted_in_cpp(input, gain, out);
    Ok(())
}

/// C++ hands the whole frame to Rust's `scale_frame` in one call.
pub fn batched_from_cpp(input: &[f32], gain: f32, out: &mut [f32]) -> Result<(), LengthMismatch> {
    LengthMismatch::check(input, out)?;
    ffi::scale_batched_in_cpp(input, gain, out);
    Ok(())
}
