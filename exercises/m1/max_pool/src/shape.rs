use crate::PoolError;

/// The output height and width of max pooling with window and stride `k`, no padding.
/// `Err(PoolError::Shape(..))` for `k == 0` or a window larger than the image.
pub fn pooled_shape(_height: usize, _width: usize, _k: usize) -> Result<(usize, usize), PoolError> {
    todo!("floor(h / k) × floor(w / k), or an error")
}
