use computational_graphs::tensor::Tensor2D;

/// The output values, row by row. Output element (r, c) is the sum, over every kernel element
/// (i, j), of `kernel(i, j) * image(r * stride + i, c * stride + j)`.
///
/// `output` is what `conv2d_shape` returned for these shapes, so every window fits the image.
pub fn conv2d(
    _image: &Tensor2D,
    _kernel: &Tensor2D,
    _stride: usize,
    _output: (usize, usize),
) -> Vec<f32> {
    todo!("one sum of products per output element")
}
