//! GPTQ (Frantar et al., 2022) for the course's layers: round a weight matrix one input row at a
//! time and, after each row, move the rows not yet rounded so that they cancel the error it put
//! on the layer's output over calibration inputs. The inverse Hessian of that output error says
//! how much each remaining row should move.

use computational_graphs::ops::cpu;
use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::{Affine, Scheme};
use crate::fake_quant::Granularity;
use crate::model::Mlp;

/// Lower-triangular L with L·Lᵀ = a (k×k, row-major), or `None` when a is not positive definite.
fn cholesky(a: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|p| l[i * k + p] * l[j * k + p]).sum();
            let v = a[i * k + j] - dot;
            if i == j {
                if v <= 0.0 {
                    return None;
                }
                l[i * k + i] = v.sqrt();
            } else {
                l[i * k + j] = v / l[j * k + j];
            }
        }
    }
    Some(l)
}

/// The inverse of a positive-definite matrix, column by column from its Cholesky factor.
fn inverse(a: &[f64], k: usize) -> Option<Vec<f64>> {
    let l = cholesky(a, k)?;
    let mut inv = vec![0.0; k * k];
    for c in 0..k {
        // Solve L·y = e_c, then Lᵀ·x = y.
        let mut y = vec![0.0; k];
        for i in 0..k {
            let e = if i == c { 1.0 } else { 0.0 };
            y[i] = (e - (0..i).map(|p| l[i * k + p] * y[p]).sum::<f64>()) / l[i * k + i];
        }
        for i in (0..k).rev() {
            let s: f64 = (i + 1..k).map(|p| l[p * k + i] * inv[p * k + c]).sum();
            inv[i * k + c] = (y[i] - s) / l[i * k + i];
        }
    }
    Some(inv)
}

/// The upper factor U (UᵀU = H⁻¹) of H = 2XᵀX + damping, which GPTQ walks row by row.
fn inverse_hessian_factor(x: &Tensor2D, damp: f64) -> Result<Vec<f64>, QuantError> {
    let (m, k) = x.shape();
    let mut h = vec![0.0f64; k * k];
    for r in 0..m {
        let row = &x.data()[r * k..(r + 1) * k];
        for i in 0..k {
            for j in 0..k {
                h[i * k + j] += 2.0 * f64::from(row[i]) * f64::from(row[j]);
            }
        }
    }
    let mean_diag = (0..k).map(|i| h[i * k + i]).sum::<f64>() / k as f64;
    for i in 0..k {
        // An input that is always 0 (a dead ReLU) has no curvature; 1 keeps H invertible.
        h[i * k + i] += if h[i * k + i] == 0.0 {
            1.0
        } else {
            damp * mean_diag
        };
    }
    let singular = || QuantError::Shape {
        what: "GPTQ",
        detail: "the calibration inputs' Hessian is not positive definite; raise the damping"
            .into(),
    };
    let l = cholesky(&inverse(&h, k).ok_or_else(singular)?, k).ok_or_else(singular)?;
    // U = Lᵀ: row i of U is column i of L.
    Ok((0..k * k).map(|ij| l[(ij % k) * k + ij / k]).collect())
}

/// `w` (k×n, used as x·W) rounded to `bits`-bit symmetric levels with GPTQ's error compensation,
/// the scales fixed from `w` beforehand (per tensor or per output column), `x` (m×k) the
/// calibration inputs of this layer.
pub fn gptq(
    w: &Tensor2D,
    x: &Tensor2D,
    bits: u32,
    granularity: Granularity,
) -> Result<Tensor2D, QuantError> {
    let (k, n) = w.shape();
    if x.cols() != k {
        let detail = format!("inputs have {} features, the weights {k} rows", x.cols());
        return Err(QuantError::Shape {
            what: "GPTQ",
            detail,
        });
    }
    // ANCHOR: gptq
    let col_max = |c: usize| (0..k).fold(0.0f32, |m, r| m.max(w.get(r, c).abs()));
    let tensor_max = (0..n).map(col_max).fold(0.0f32, f32::max);
    let maps = (0..n)
        .map(|c| match granularity {
            Granularity::PerTensor => Affine::fit(-tensor_max, tensor_max, bits, Scheme::Symmetric),
            Granularity::PerChannel => {
                Affine::fit(-col_max(c), col_max(c), bits, Scheme::Symmetric)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let u = inverse_hessian_factor(x, 0.01)?;
    let mut work: Vec<f64> = w.data().iter().map(|&v| f64::from(v)).collect();
    for i in 0..k {
        for (c, map) in maps.iter().enumerate() {
            let q = f64::from(map.dequantize(map.quantize(work[i * n + c] as f32)));
            // The error this rounding makes, in units that the rows below can absorb.
            let err = (work[i * n + c] - q) / u[i * k + i];
            work[i * n + c] = q;
            for j in i + 1..k {
                work[j * n + c] -= err * u[i * k + j];
            }
        }
    }
    Tensor2D::new(k, n, work.into_iter().map(|v| v as f32).collect()).map_err(Into::into)
}
// ANCHOR_END: gptq

/// Every layer of `model` through [`gptq`], in order, each calibrated on its inputs as the layers
/// before it, already quantized, produce them from `calibration` (the way GPTQ runs a network).
pub fn gptq_model(
    model: &Mlp,
    calibration: &Tensor2D,
    bits: u32,
    granularity: Granularity,
) -> Result<Mlp, QuantError> {
    let mut h = calibration.clone();
    let mut layers = Vec::with_capacity(model.layers.len());
    for (i, (w, b)) in model.layers.iter().enumerate() {
        let q = gptq(w, &h, bits, granularity)?;
        if i + 1 < model.layers.len() {
            h = cpu::relu(&cpu::linear(&h, &q, b)?);
        }
        layers.push((q, b.clone()));
    }
    Ok(Mlp { layers })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_quant::fake_quantize;
    use crate::noise::gaussian;

    fn output_error(x: &Tensor2D, w: &Tensor2D, q: &Tensor2D) -> f64 {
        let zero = Tensor2D::zeros(1, w.cols());
        let (a, b) = (
            cpu::linear(x, w, &zero).unwrap(),
            cpu::linear(x, q, &zero).unwrap(),
        );
        let d = a.data().iter().zip(b.data());
        d.map(|(p, q)| f64::from(p - q).powi(2)).sum()
    }

    #[test]
    fn with_uncorrelated_inputs_gptq_is_plain_rounding() {
        // X = I: the Hessian is diagonal, so no row can absorb another's error.
        let mut eye = Tensor2D::zeros(16, 16);
        (0..16).for_each(|i| eye.data_mut()[i * 16 + i] = 1.0);
        let w = gaussian(16, 4, 1.0, 2);
        let g = gptq(&w, &eye, 4, Granularity::PerChannel).unwrap();
        let rtn = fake_quantize(&w, 4, Scheme::Symmetric, Granularity::PerChannel).unwrap();
        for (a, b) in g.data().iter().zip(rtn.data()) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }

    #[test]
    fn with_correlated_inputs_gptq_lowers_the_output_error() {
        // Inputs whose features share a common part: the rows can cancel each other's errors.
        let (base, common) = (gaussian(256, 32, 1.0, 3), gaussian(256, 1, 1.0, 4));
        let mut x = base.clone();
        for r in 0..256 {
            for c in 0..32 {
                x.data_mut()[r * 32 + c] += 2.0 * common.get(r, 0);
            }
        }
        let w = gaussian(32, 8, 1.0, 5);
        for g in [Granularity::PerTensor, Granularity::PerChannel] {
            let rtn = fake_quantize(&w, 3, Scheme::Symmetric, g).unwrap();
            let q = gptq(&w, &x, 3, g).unwrap();
            let (e_rtn, e_gptq) = (output_error(&x, &w, &rtn), output_error(&x, &w, &q));
            assert!(
                e_gptq < 0.5 * e_rtn,
                "{g:?}: GPTQ {e_gptq} vs rounding {e_rtn}"
            );
            // Still a 3-bit grid: each weight is a whole number of its range's steps, at most 3.
            for c in 0..8 {
                let rows = |r: usize| match g {
                    Granularity::PerTensor => rtn.data()[r * 8..(r + 1) * 8].to_vec(),
                    Granularity::PerChannel => vec![rtn.get(r, c)],
                };
                let step = (0..32).flat_map(rows).fold(0.0f32, |m, v| m.max(v.abs())) / 3.0;
                for r in 0..32 {
                    let levels = q.get(r, c) / step;
                    assert!((levels - levels.round()).abs() < 1e-3 && levels.abs() <= 3.001);
                }
            }
        }
    }

    #[test]
    fn the_inverse_inverts() {
        let a = [4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0];
        let inv = inverse(&a, 3).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let v: f64 = (0..3).map(|p| a[i * 3 + p] * inv[p * 3 + j]).sum();
                assert!((v - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn mismatched_inputs_are_refused() {
        let err = gptq(
            &Tensor2D::zeros(4, 2),
            &Tensor2D::zeros(3, 5),
            4,
            Granularity::PerTensor,
        );
        assert!(err.unwrap_err().to_string().contains("5 features"));
    }
}
