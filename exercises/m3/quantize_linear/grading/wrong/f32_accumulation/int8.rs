//! Wrong: the integer products are summed in f32.

use crate::ShapeError;

/// The symmetric int8 scale of `x`: its largest |value| maps to 127 (1.0 for an all-zero `x`).
pub fn symmetric_scale(x: &[f32]) -> f32 {
    let hi = x.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if hi > 0.0 { hi / 127.0 } else { 1.0 }
}

/// Each value divided by `scale`, rounded to nearest (ties to even), saturated to [-127, 127].
pub fn quantize(x: &[f32], scale: f32) -> Vec<i8> {
    x.iter()
        .map(|v| (v / scale).round_ties_even().clamp(-127.0, 127.0) as i8)
        .collect()
}

/// Each integer times `scale`.
pub fn dequantize(q: &[i8], scale: f32) -> Vec<f32> {
    q.iter().map(|&v| f32::from(v) * scale).collect()
}

/// `a · b` for int8 `a` (m×k) and `b` (k×n), row-major, summed exactly in i32.
pub fn gemm_i8(a: &[i8], b: &[i8], m: usize, k: usize, n: usize) -> Result<Vec<i32>, ShapeError> {
    let check = |name, rows: usize, cols: usize, got| {
        if rows.checked_mul(cols) == Some(got) {
            Ok(())
        } else {
            Err(ShapeError::WrongLength {
                name,
                rows,
                cols,
                got,
            })
        }
    };
    check("a", m, k, a.len())?;
    check("b", k, n, b.len())?;
    // Wrong: the sums in f32, which holds integers exactly only up to 2^24; past that each
    // addition rounds.
    let mut out = vec![0f32; m * n];
    for i in 0..m {
        for p in 0..k {
            let x = f32::from(a[i * k + p]);
            for j in 0..n {
                out[i * n + j] += x * f32::from(b[p * n + j]);
            }
        }
    }
    Ok(out.into_iter().map(|v| v as i32).collect())
}
