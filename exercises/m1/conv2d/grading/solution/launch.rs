//! How the GPU runs the kernel (solution).

pub fn params(
    image: (usize, usize),
    kernel: (usize, usize),
    stride: usize,
    output: (usize, usize),
) -> Vec<u32> {
    [
        image.0, image.1, kernel.0, kernel.1, stride, output.0, output.1,
    ]
    .map(|n| n as u32)
    .to_vec()
}

/// x covers the output's columns and y its rows, 8 of each per workgroup.
pub fn workgroups(output: (usize, usize)) -> [u32; 3] {
    [
        (output.1 as u32).div_ceil(8),
        (output.0 as u32).div_ceil(8),
        1,
    ]
}
