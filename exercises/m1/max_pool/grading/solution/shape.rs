use crate::PoolError;

/// The output height and width of max pooling (solution).
pub fn pooled_shape(height: usize, width: usize, k: usize) -> Result<(usize, usize), PoolError> {
    if k == 0 || k > height || k > width {
        return Err(PoolError::Shape(format!(
            "a {k}×{k} window does not fit a {height}×{width} image (k must be 1..=min(h, w))"
        )));
    }
    Ok((height / k, width / k))
}
