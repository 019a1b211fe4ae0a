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
            let centred = sum - zero * weights.column_sums[j];
            x.scale * weights.scales[j] * centred as f32 + bias[j]
        })
        .collect())
}
