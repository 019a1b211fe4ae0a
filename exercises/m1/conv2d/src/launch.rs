//! How `conv2d.wgsl` is launched: the numbers it reads and how many workgroups cover the output.

/// The numbers `conv2d.wgsl` reads from `params`, in the order it reads them (you choose the
/// order; the kernel and this function must agree). Shapes are (rows, cols).
pub fn params(
    _image: (usize, usize),
    _kernel: (usize, usize),
    _stride: usize,
    _output: (usize, usize),
) -> Vec<u32> {
    todo!("the sizes and the stride the kernel needs")
}

/// Workgroups in x, y and z, so that every element of an output of shape (rows, cols) gets its
/// own invocation with the `@workgroup_size` declared in `conv2d.wgsl`.
pub fn workgroups(_output: (usize, usize)) -> [u32; 3] {
    todo!("enough 8×8 workgroups to cover the output")
}
