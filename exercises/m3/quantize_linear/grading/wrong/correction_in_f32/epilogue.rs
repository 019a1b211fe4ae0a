//! Wrong: the zero-point correction is computed in f32 instead of i32.

use crate::{Asymmetric, QuantizedWeights, ShapeError};

/// The f32 outputs from the i32 sums `acc` (m×n) of `qx · weights.values`:
/// `y[i][j] = x.scale · weights.scales[j] · (acc[i][j] − zx · weights.column_sums[j]) + bias[j]`,
/// the correction computed in i32 (exact), then converted once.
pub fn dequantize_accumulators(
    acc: &[i32],
    m: usize,
    n: usize,
    x: Asymmetric,
    weights: &QuantizedWeights,
    bias: &[f32],
) -> Result<Vec<f32>, ShapeError> {
    for (name, rows, cols, got) in [
        ("acc", m, n, acc.len()),
        ("weights.scales", 1, n, weights.scales.len()),
        ("weights.column_sums", 1, n, weights.column_sums.len()),
        ("bias", 1, n, bias.len()),
    ] {
        if rows.checked_mul(cols) != Some(got) {
            return Err(ShapeError::WrongLength {
                name,
                rows,
                cols,
                got,
            });
        }
    }
    let zero = i32::from(x.zero_point);
    Ok(acc
        .iter()
        .enumerate()
        .map(|(at, &sum)| {
            let j = at % n;
            // Wrong: the correction in f32. Both terms can be near 6.5e7, where an f32 is a
            // multiple of 4, so a small difference loses its last bits.
            let centred = sum as f32 - zero as f32 * weights.column_sums[j] as f32;
            x.scale * weights.scales[j] * centred + bias[j]
        })
        .collect())
}
