use computational_graphs::ShapeError;

/// The output (rows, cols) of a convolution without padding: `image` and `kernel` are
/// (rows, cols), and the kernel moves `stride` elements at a time in both directions.
///
/// A stride of 0, an empty image or kernel, and a kernel larger than the image (in either
/// direction) are errors. The message names what is wrong — the `stride`, the `kernel` or the
/// `image`, with its size — and says what to do about it: `ShapeError::Empty { what: "the image",
/// shape: image }` for an empty tensor, `ShapeError::invalid(format!("…"))` for the other rules.
pub fn conv2d_shape(
    _image: (usize, usize),
    _kernel: (usize, usize),
    _stride: usize,
) -> Result<(usize, usize), ShapeError> {
    todo!("(h - kh) / stride + 1 rows and (w - kw) / stride + 1 columns, or an error")
}
