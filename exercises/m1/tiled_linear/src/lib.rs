//! Exercise: a Linear layer, `y = x · w + b`, as a WGSL kernel that tiles through workgroup
//! (shared) memory, run as a custom operator of the course's graph crate `computational_graphs`.
//!
//! Given (the grader uses the staff copies): this file, `operator.rs` (the `TiledLinear` and
//! `NaiveLinear` operators) and the naive kernel `linear_naive.wgsl`. Your work: the kernel in
//! `linear_tiled.wgsl` and the dispatch size in `dispatch.rs`.

mod dispatch;
mod operator;

pub use dispatch::workgroups;
pub use operator::{NaiveLinear, TiledLinear};

use computational_graphs::Error;
use computational_graphs::graph::Custom;
use computational_graphs::immediate;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// The kernel you write: 16×16 threads per workgroup, one output tile each.
pub const TILED_WGSL: &str = include_str!("linear_tiled.wgsl");
/// One thread per output element, every operand read from global memory (given).
pub const NAIVE_WGSL: &str = include_str!("linear_naive.wgsl");

/// `x · w + b` with your tiled kernel, in immediate mode (upload, dispatch, read back):
/// x is m×k, w k×n, b 1×n, the result m×n.
pub fn linear_tiled(
    ctx: &GpuContext,
    x: &Tensor2D,
    w: &Tensor2D,
    b: &Tensor2D,
) -> Result<Tensor2D, Error> {
    immediate::custom(ctx, &Custom::new(TiledLinear), &[x, w, b])
}

/// The same product with the naive kernel, to compare with.
pub fn linear_naive(
    ctx: &GpuContext,
    x: &Tensor2D,
    w: &Tensor2D,
    b: &Tensor2D,
) -> Result<Tensor2D, Error> {
    immediate::custom(ctx, &Custom::new(NaiveLinear), &[x, w, b])
}
