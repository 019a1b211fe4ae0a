// Wrong on purpose (check-exercises proves it loses points): 
use computational_graphs::ShapeError;

/// The output (rows, cols) of a convolution without padding (solution).
pub fn conv2d_shape(
    image: (usize, usize),
    kernel: (usize, usize),
    stride: usize,
) -> Result<(usize, usize), ShapeError> {
    let ((h, w), (kh, kw)) = (image, kernel);
    if stride == 0 {
        return Err(ShapeError::invalid(
            "the stride is 0: the kernel must move at least 1 element (stride ≥ 1)",
        ));
    }
    if kh == 0 || kw == 0 {
        return Err(ShapeError::Empty {
            what: "the kernel",
            shape: kernel,
        });
    }
    if h == 0 || w == 0 {
        return Err(ShapeError::Empty {
            what: "the image",
            shape: image,
        });
    }
    if kh > h || kw > w {
        return Err(ShapeError::invalid(format!(
            "a {kh}×{kw} kernel does not fit inside a {h}×{w} image: use a smaller kernel \
             (or pad the image)"
        )));
    }
    // Wrong on purpose: the output size rounded up, a window past the image's edge.
    Ok(((h - kh).div_ceil(stride) + 1, (w - kw).div_ceil(stride) + 1))
}
