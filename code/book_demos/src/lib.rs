//! The course's GPU demos, compiled to WebAssembly and run in the reader's browser from the book.
//!
//! The GPU code here is `async` all the way down and never blocks, because a browser page cannot
//! block: natively it runs under `pollster::block_on` (see the tests), in the browser under
//! `wasm_bindgen_futures` (see `web`). Both call the same functions.

pub mod reference;
pub mod vector_add;
#[cfg(target_arch = "wasm32")]
mod web;

pub use vector_add::{DemoError, VectorAdd};
