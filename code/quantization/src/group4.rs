//! 4-bit weights in groups: every `group` consecutive values of an output column share one
//! scale, so an outlier only coarsens its own group (the layout of GPTQ/AWQ-style int4 models).

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::{Affine, Scheme};

// ANCHOR: group4_quantize
/// Weights (k×n) as 4-bit integers in [-7, 7], eight to a u32, one f32 scale per group.
#[derive(Clone, Debug, PartialEq)]
pub struct Group4Weights {
    pub k: usize,
    pub n: usize,
    pub group: usize,
    /// Column-major nibbles: column c's value r is nibble r of column c's words.
    pub words: Vec<u32>,
    /// `scales[c * groups + g]`.
    pub scales: Vec<f32>,
}

impl Group4Weights {
    pub fn quantize(w: &Tensor2D, group: usize) -> Result<Self, QuantError> {
        let (k, n) = w.shape();
        if group == 0 || !group.is_multiple_of(8) {
            return Err(QuantError::Shape {
                what: "group quantization",
                detail: format!("group size {group} must be a positive multiple of 8 (one word)"),
            });
        }
        let words_per_col = k.div_ceil(8);
        let mut words = vec![0u32; n * words_per_col];
        let mut scales = Vec::new();
        for c in 0..n {
            for start in (0..k).step_by(group) {
                let rows = start..(start + group).min(k);
                let hi = rows.clone().fold(0.0f32, |m, r| m.max(w.get(r, c).abs()));
                let map = Affine::fit(-hi, hi, 4, Scheme::Symmetric)?;
                scales.push(map.scale);
                for r in rows {
                    let nibble = (map.quantize(w.get(r, c)) as u32) & 0xF;
                    words[c * words_per_col + r / 8] |= nibble << (4 * (r % 8));
                }
            }
        }
        // ANCHOR_END: group4_quantize
        Ok(Self {
            k,
            n,
            group,
            words,
            scales,
        })
    }

    // ANCHOR: group4_dequantize
    /// The real-valued weights the 4-bit model computes with.
    pub fn dequantize(&self) -> Tensor2D {
        let (words_per_col, groups) = (self.k.div_ceil(8), self.k.div_ceil(self.group));
        let mut out = Tensor2D::zeros(self.k, self.n);
        for c in 0..self.n {
            for r in 0..self.k {
                let word = self.words[c * words_per_col + r / 8];
                // Shift the nibble to the top, then an arithmetic shift back sign-extends it.
                let q = ((word >> (4 * (r % 8))) << 28) as i32 >> 28;
                let scale = self.scales[c * groups + r / self.group];
                out.data_mut()[r * self.n + c] = q as f32 * scale;
            }
        }
        out
    }

    /// Bytes of weights and scales: about half a byte per weight plus 4/group.
    pub fn bytes(&self) -> usize {
        self.words.len() * 4 + self.scales.len() * 4
    }
}
// ANCHOR_END: group4_dequantize

#[cfg(test)]
mod tests {
    use super::*;
    use computational_graphs::rng::SplitMix64;

    #[test]
    fn groups_bound_the_error_by_half_a_step_of_their_own_scale() {
        let mut rng = SplitMix64::new(4);
        let mut w = Tensor2D::random(70, 3, 1.0, &mut rng);
        w.data_mut()[0] = 40.0; // an outlier in column 0, group 0 only
        let q = Group4Weights::quantize(&w, 32).unwrap();
        let d = q.dequantize();
        for r in 32..70 {
            assert!(
                (d.get(r, 0) - w.get(r, 0)).abs() <= 1.0 / 7.0 / 2.0 + 1e-6,
                "row {r}"
            );
        }
        assert!(q.bytes() < 70 * 3 * 4 / 4, "{} bytes", q.bytes());
    }

    #[test]
    fn a_bad_group_size_is_refused() {
        assert!(Group4Weights::quantize(&Tensor2D::zeros(8, 1), 12).is_err());
    }
}
