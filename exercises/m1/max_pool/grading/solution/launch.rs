//! How the GPU runs the kernel (solution).
//!
//! Sizes become `u32` with `as`: the tensors already sit in device buffers, which are far
//! smaller than 2³² elements, so nothing is cut off.

/// `@workgroup_size(8, 8, 1)` in `max_pool.wgsl`.
const WORKGROUP: u32 = 8;

/// `params` = [rows, cols, k, out_rows, out_cols], the order the kernel reads them.
pub fn params(input: (usize, usize), k: usize, output: (usize, usize)) -> Vec<u32> {
    [input.0, input.1, k, output.0, output.1]
        .iter()
        .map(|&v| v as u32)
        .collect()
}

/// One invocation per output element: x = column, y = row, rounded up to whole workgroups.
pub fn workgroups(output: (usize, usize)) -> [u32; 3] {
    [
        (output.1 as u32).div_ceil(WORKGROUP),
        (output.0 as u32).div_ceil(WORKGROUP),
        1,
    ]
}
