//! The graph compiler, one stage per file, in the order they run:
//!
//! 1. [`fuse`]: swap Linear→ReLU(→Softmax) for the fused operators (used by both runners);
//! 2. [`lower`]: decompose every node into op codes and merge element-wise op codes into the
//!    kernel that produces their input;
//! 3. [`codegen`]: turn each kernel's op codes into WGSL source (programs are just strings),
//!    specialised for its shapes ([`specialise`]);
//! 4. [`run`]: compile the sources (cached by source text) and run them as a [`crate::backend::gpu_program::GpuProgram`];
//!    a Linear may instead run on a tuned matmul, chosen by a heuristic or by the [`autotune`]r,
//!    and a run of small Linears may run as one [`chain`] kernel (one row per workgroup) or
//!    [`chain_block`] kernel (a block of rows per workgroup).

pub mod autotune;
pub mod chain;
pub mod chain_block;
pub mod codegen;
pub mod fuse;
pub mod lower;
pub mod run;
pub mod specialise;

pub use codegen::Options;
pub use fuse::fuse;
pub use run::{
    CompiledGraph, LinearKernels, compile, compile_choosing_kernels, compile_with,
    compile_with_chain_layout, compile_with_chains,
};
