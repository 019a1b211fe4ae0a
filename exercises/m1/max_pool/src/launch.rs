//! How the GPU runs your kernel: the numbers it reads from `params`, and how many workgroups.
//! `input` and `output` are (rows, cols); the output is already checked by `pooled_shape`.

/// What `max_pool.wgsl` reads from its `params` binding, in the order it reads them. The
/// layout is yours to choose; the kernel and this function must agree on it.
pub fn params(_input: (usize, usize), _k: usize, _output: (usize, usize)) -> Vec<u32> {
    todo!("the sizes the kernel needs, in the order it reads them")
}

/// Workgroups along x (output columns), y (output rows) and z, so that the kernel's
/// `@workgroup_size` times these covers every output element.
pub fn workgroups(_output: (usize, usize)) -> [u32; 3] {
    todo!("enough workgroups to cover the output, rounding up")
}
