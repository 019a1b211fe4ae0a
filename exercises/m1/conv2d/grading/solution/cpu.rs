use computational_graphs::tensor::Tensor2D;

/// The convolution on the CPU (solution).
pub fn conv2d(
    image: &Tensor2D,
    kernel: &Tensor2D,
    stride: usize,
    output: (usize, usize),
) -> Vec<f32> {
    let (kh, kw) = kernel.shape();
    let mut out = Vec::with_capacity(output.0 * output.1);
    for r in 0..output.0 {
        for c in 0..output.1 {
            let mut sum = 0.0;
            for i in 0..kh {
                for j in 0..kw {
                    sum += kernel.get(i, j) * image.get(r * stride + i, c * stride + j);
                }
            }
            out.push(sum);
        }
    }
    out
}
