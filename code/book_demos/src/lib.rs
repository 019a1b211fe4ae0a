//! The course's GPU demos, compiled to WebAssembly and run in the reader's browser from the book.
//!
//! Every demo is `async` all the way down and never blocks, because a browser page cannot: the
//! same functions run natively under `pollster::block_on` (the tests, on lavapipe) and in the
//! browser under `wasm_bindgen_futures` (see `web`). They reuse the course's crates wherever
//! those run in a page: `gpu_context` (opened with `GpuContext::open`, read back with
//! `download_async`), `computational_graphs` (the matmul ladder and every graph runner) and
//! `quantization` (the GEMM in each number format). Each demo checks its result against a CPU
//! reference and times the GPU with the platform's clock (`clock`).

pub mod clock;
pub mod display;
mod error;
pub mod formats;
pub mod graph_modes;
pub mod histogram;
pub mod matmul;
pub mod reference;
pub mod timestamps;
pub mod vector_add;
#[cfg(target_arch = "wasm32")]
mod web;

pub use error::{DemoError, check_offered};
pub use vector_add::VectorAdd;
