/// The output (rows, cols) of max pooling an h×w tensor with window and stride `k` (solution).
pub fn pooled_shape(h: usize, w: usize, k: usize) -> Result<(usize, usize), String> {
    if k == 0 {
        return Err("a 0×0 window pools nothing: use k ≥ 1 (k = 2 halves each side)".into());
    }
    if h == 0 || w == 0 {
        return Err(format!(
            "a {h}×{w} tensor is empty: give it at least one row and one column"
        ));
    }
    if k > h || k > w {
        return Err(format!(
            "a {k}×{k} window does not fit a {h}×{w} tensor: use k between 1 and {}",
            h.min(w)
        ));
    }
    Ok((h / k, w / k))
}
