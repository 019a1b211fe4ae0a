//! Exercise: row-wise softmax with tree reductions in workgroup memory, run as a custom operator
//! of the course's graph crate `computational_graphs`.
//!
//! Given (the grader uses the staff copies): this file, `operator.rs` (the `SoftmaxTree` and
//! `SoftmaxSinglePass` operators) and the single-pass kernel `softmax_single_pass.wgsl`. Your
//! work: the kernel in `softmax_tree.wgsl` and the dispatch grid in `dispatch.rs`.

mod dispatch;
mod operator;

pub use dispatch::workgroup_grid;
pub use operator::{SoftmaxSinglePass, SoftmaxTree};

use computational_graphs::Error;
use computational_graphs::graph::Custom;
use computational_graphs::immediate;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// The kernel you write: one workgroup of 64 threads per row.
pub const TREE_WGSL: &str = include_str!("softmax_tree.wgsl");
/// One thread per row, looping over the row three times (given).
pub const SINGLE_PASS_WGSL: &str = include_str!("softmax_single_pass.wgsl");

/// The most workgroups one dispatch dimension may hold (WebGPU's default limit).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65_535;

/// Softmax of each row of `x` with your tree-reduction kernel, in immediate mode.
pub fn softmax_tree(ctx: &GpuContext, x: &Tensor2D) -> Result<Tensor2D, Error> {
    immediate::custom(ctx, &Custom::new(SoftmaxTree), &[x])
}

/// The same with the single-pass kernel, to compare with.
pub fn softmax_single_pass(ctx: &GpuContext, x: &Tensor2D) -> Result<Tensor2D, Error> {
    immediate::custom(ctx, &Custom::new(SoftmaxSinglePass), &[x])
}
