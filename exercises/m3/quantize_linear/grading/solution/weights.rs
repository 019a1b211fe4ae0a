use crate::{QuantizedWeights, ShapeError, quantize, symmetric_scale};

/// `w` (k×n, row-major) quantized symmetrically with one scale per column (output channel),
/// with each column's sum of integers. A wrong length is `WrongLength` named "w".
pub fn quantize_weights(w: &[f32], k: usize, n: usize) -> Result<QuantizedWeights, ShapeError> {
    if k.checked_mul(n) != Some(w.len()) {
        return Err(ShapeError::WrongLength {
            name: "w",
            rows: k,
            cols: n,
            got: w.len(),
        });
    }
    let mut values = vec![0i8; k * n];
    let mut scales = Vec::with_capacity(n);
    let mut column_sums = Vec::with_capacity(n);
    for j in 0..n {
        let column: Vec<f32> = (0..k).map(|p| w[p * n + j]).collect();
        let scale = symmetric_scale(&column);
        let q = quantize(&column, scale);
        for (p, &v) in q.iter().enumerate() {
            values[p * n + j] = v;
        }
        scales.push(scale);
        column_sums.push(q.iter().map(|&v| i32::from(v)).sum());
    }
    Ok(QuantizedWeights {
        k,
        n,
        values,
        scales,
        column_sums,
    })
}
