use computational_graphs::ShapeError;

/// The output (rows, cols) of max pooling an h×w tensor with window and stride `k`, no padding:
/// floor(h / k) × floor(w / k). `k == 0`, an empty tensor, or a window taller or wider than the
/// tensor is an `Err` whose text says what is wrong and what to do instead: for example
/// `ShapeError::Empty { what: "the tensor", shape: (h, w) }`, or `ShapeError::invalid(format!("…"))`
/// in your own words.
pub fn pooled_shape(_h: usize, _w: usize, _k: usize) -> Result<(usize, usize), ShapeError> {
    todo!("floor(h / k) × floor(w / k), or an error that says what to do")
}
