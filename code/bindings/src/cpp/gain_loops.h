// The C++ side of the bridge in src/cpp.rs: two loops that call back into Rust.
#pragma once
#include "rust/cxx.h"

namespace bindings {

// Calls Rust once per sample.
void scale_per_element_in_cpp(rust::Slice<const float> input, float gain,
                              rust::Slice<float> out);

// Calls Rust once per sample, with the slices' data pointers taken once, before the loop.
void scale_per_element_hoisted_in_cpp(rust::Slice<const float> input, float gain,
                                      rust::Slice<float> out);

// Calls Rust once for the whole frame.
void scale_batched_in_cpp(rust::Slice<const float> input, float gain,
                          rust::Slice<float> out);

}  // namespace bindings
