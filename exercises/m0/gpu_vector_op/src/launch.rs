//! Your file: how many workgroups to launch. `saxpy.wgsl` must agree with it.

/// Workgroups along x, y and z for `n` elements (n ≥ 1) and workgroups of 64 invocations, with
/// no count above `max_per_dimension` (65 535 on most GPUs). Launch a grid of x × y workgroups,
/// as close to one row as the limit allows, with enough invocations for every element
/// (x · y · 64 ≥ n) and at most one row of workgroups left over. (The caller keeps n within
/// 64 · max_per_dimension², which every u32 is when the limit is 65 535.)
pub fn workgroups(_n: u32, _max_per_dimension: u32) -> [u32; 3] {
    todo!("ceil(n / 64) workgroups, folded into rows of at most max_per_dimension")
}
