use computational_graphs::ShapeError;

/// The output (rows, cols) of max pooling an h×w tensor with window and stride `k` (solution).
pub fn pooled_shape(h: usize, w: usize, k: usize) -> Result<(usize, usize), ShapeError> {
    if k == 0 {
        return Err(ShapeError::invalid(
            "a 0×0 window pools nothing: use k ≥ 1 (k = 2 halves each side)",
        ));
    }
    if h == 0 || w == 0 {
        return Err(ShapeError::Empty {
            what: "the tensor",
            shape: (h, w),
        });
    }
    if k > h || k > w {
        return Err(ShapeError::invalid(format!(
            "a {k}×{k} window does not fit a {h}×{w} tensor: use k between 1 and {}",
            h.min(w)
        )));
    }
    Ok((h / k, w / k))
}
