//! The affine map between real numbers and b-bit integers: `x ≈ scale · (q − zero)`.

use crate::QuantError;

/// Symmetric maps keep zero at integer 0 (weights, whose values straddle zero); asymmetric maps
/// shift the integer range to cover `[min, max]` exactly (activations after a ReLU, ≥ 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    Symmetric,
    Asymmetric,
}

// ANCHOR: affine_fit_symmetric
/// One scale and zero point, and the integer range they map into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    pub scale: f32,
    pub zero: i32,
    pub qmin: i32,
    pub qmax: i32,
}

impl Affine {
    /// The map that covers `[min, max]` with `bits`-bit integers.
    pub fn fit(min: f32, max: f32, bits: u32, scheme: Scheme) -> Result<Self, QuantError> {
        if !(2..=8).contains(&bits) {
            return Err(QuantError::Bits { bits });
        }
        // Zero must be representable exactly (padding, ReLU outputs), so the range includes it.
        let (min, max) = (min.min(0.0), max.max(0.0));
        let a = match scheme {
            Scheme::Symmetric => {
                // [-(2^(b-1) - 1), 2^(b-1) - 1]: leave out -2^(b-1) so the range is symmetric.
                let qmax = (1 << (bits - 1)) - 1;
                let scale = min.abs().max(max) / qmax as f32;
                Affine {
                    scale,
                    zero: 0,
                    qmin: -qmax,
                    qmax,
                }
            }
            // ANCHOR_END: affine_fit_symmetric
            // ANCHOR: affine_fit_asymmetric
            Scheme::Asymmetric => {
                let (qmin, qmax) = (0, (1 << bits) - 1);
                let scale = (max - min) / qmax as f32;
                let zero = if scale > 0.0 {
                    (-min / scale).round_ties_even() as i32
                } else {
                    0
                };
                Affine {
                    scale,
                    zero,
                    qmin,
                    qmax,
                }
            }
        };
        // An all-zero tensor: any scale works; 1 avoids dividing by zero.
        Ok(if a.scale > 0.0 {
            a
        } else {
            Affine { scale: 1.0, ..a }
        })
    }
    // ANCHOR_END: affine_fit_asymmetric

    // ANCHOR: affine_round_trip
    /// Round to nearest (ties to even, as WGSL's `round`), then saturate to the range.
    pub fn quantize(&self, x: f32) -> i32 {
        let q = (x / self.scale).round_ties_even() as i32 + self.zero;
        q.clamp(self.qmin, self.qmax)
    }

    pub fn dequantize(&self, q: i32) -> f32 {
        (q - self.zero) as f32 * self.scale
    }
}
// ANCHOR_END: affine_round_trip

/// How the range of a tensor is chosen from sample values ("calibration").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Calibration {
    /// The smallest and largest value seen: nothing clips, but one outlier stretches the scale.
    MinMax,
    /// Clip to the given percentile of |x| (e.g. 99.9): a few outliers saturate, the rest
    /// get finer steps.
    Percentile(f32),
}

// ANCHOR: calibrate
/// The `[min, max]` range to quantize `samples` with.
pub fn calibrate(samples: &[f32], how: Calibration) -> (f32, f32) {
    let min = samples.iter().copied().fold(0.0f32, f32::min);
    let max = samples.iter().copied().fold(0.0f32, f32::max);
    match how {
        Calibration::MinMax => (min, max),
        Calibration::Percentile(p) => {
            let mut mags: Vec<f32> = samples.iter().map(|x| x.abs()).collect();
            mags.sort_by(f32::total_cmp);
            let at = ((p / 100.0) * (mags.len().saturating_sub(1)) as f32).round() as usize;
            let clip = mags.get(at).copied().unwrap_or(0.0);
            (min.max(-clip), max.min(clip))
        }
    }
}
// ANCHOR_END: calibrate

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_int8_maps_the_extremes_to_plus_minus_127() {
        let a = Affine::fit(-2.0, 1.0, 8, Scheme::Symmetric).unwrap();
        assert_eq!(
            (a.quantize(-2.0), a.quantize(2.0), a.quantize(0.0)),
            (-127, 127, 0)
        );
        assert_eq!(a.quantize(100.0), 127, "saturates");
    }

    #[test]
    fn asymmetric_keeps_zero_exact_and_uses_the_whole_range() {
        let a = Affine::fit(0.0, 6.0, 8, Scheme::Asymmetric).unwrap();
        assert_eq!(a.zero, 0);
        assert_eq!(a.quantize(6.0), 255);
        let b = Affine::fit(-1.0, 3.0, 4, Scheme::Asymmetric).unwrap();
        assert_eq!(b.dequantize(b.quantize(0.0)), 0.0);
        for x in [-1.0f32, -0.3, 0.7, 2.9] {
            assert!((b.dequantize(b.quantize(x)) - x).abs() <= b.scale / 2.0 + 1e-6);
        }
    }

    #[test]
    fn an_unsupported_width_is_an_error_that_names_it() {
        let err = Affine::fit(-1.0, 1.0, 9, Scheme::Symmetric).unwrap_err();
        assert!(err.to_string().contains("9 bits"));
    }

    #[test]
    fn percentile_calibration_clips_an_outlier() {
        let mut xs: Vec<f32> = (0..1000).map(|i| (i as f32 / 1000.0) - 0.5).collect();
        xs.push(50.0);
        assert_eq!(calibrate(&xs, Calibration::MinMax).1, 50.0);
        assert!(calibrate(&xs, Calibration::Percentile(99.0)).1 < 0.6);
    }
}
