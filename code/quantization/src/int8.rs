//! int8 arithmetic as the hardware does it: four signed bytes packed in a 32-bit word, products
//! summed into a 32-bit integer that cannot overflow for any length this course uses.

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;
use crate::affine::{Affine, Scheme};

// ANCHOR: pack
/// Four int8 values in one u32, the first in the lowest byte (WGSL's `pack4xI8` order).
pub fn pack_i8x4(v: [i8; 4]) -> u32 {
    u32::from_le_bytes(v.map(|b| b as u8))
}

/// What WGSL's `dot4I8Packed(a, b)` returns: the sum of the four byte-wise products.
pub fn dot4_i8_packed(a: u32, b: u32) -> i32 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    (0..4)
        .map(|i| i32::from(a[i] as i8) * i32::from(b[i] as i8))
        .sum()
}

/// A row of int8 values packed four to a word; the last word is padded with zeros, which add
/// nothing to a dot product.
pub fn pack_row(row: &[i8]) -> Vec<u32> {
    row.chunks(4)
        .map(|c| {
            let mut v = [0i8; 4];
            v[..c.len()].copy_from_slice(c);
            pack_i8x4(v)
        })
        .collect()
}
// ANCHOR_END: pack

// ANCHOR: gemm_i8
/// `a · bᵀ` for int8 `a` (m×k) and int8 `b_t` (n×k, one row per output column), summed in i32.
///
/// |a·b| ≤ 127·127 per product, so k up to 2³¹ / 127² ≈ 133 000 cannot overflow i32.
pub fn gemm_i8_i32(a: &[i8], b_t: &[i8], m: usize, k: usize, n: usize) -> Vec<i32> {
    assert_eq!(
        (a.len(), b_t.len()),
        (m * k, n * k),
        "shapes checked by the callers"
    );
    let mut out = vec![0i32; m * n];
    for (i, out_row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        let a_row = &a[i * k..(i + 1) * k];
        for (j, o) in out_row.iter_mut().enumerate() {
            let b_row = &b_t[j * k..(j + 1) * k];
            *o = a_row
                .iter()
                .zip(b_row)
                .map(|(&x, &w)| i32::from(x) * i32::from(w))
                .sum();
        }
    }
    out
}
// ANCHOR_END: gemm_i8

/// Linear weights (k×n) quantized to int8, symmetric, one scale per output column, stored
/// transposed (n rows of k) so that a dot product walks contiguous bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Int8Weights {
    pub k: usize,
    pub n: usize,
    pub q_t: Vec<i8>,
    pub scales: Vec<f32>,
}

impl Int8Weights {
    pub fn quantize(w: &Tensor2D) -> Result<Self, QuantError> {
        let (k, n) = w.shape();
        let mut q_t = Vec::with_capacity(k * n);
        let mut scales = Vec::with_capacity(n);
        for c in 0..n {
            let column: Vec<f32> = (0..k).map(|r| w.get(r, c)).collect();
            let hi = column.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            let map = Affine::fit(-hi, hi, 8, Scheme::Symmetric)?;
            q_t.extend(column.iter().map(|&x| map.quantize(x) as i8));
            scales.push(map.scale);
        }
        Ok(Self { k, n, q_t, scales })
    }

    /// Each output column's bytes packed four to a word: n rows of ⌈k/4⌉ words.
    pub fn packed(&self) -> Vec<u32> {
        self.q_t
            .chunks(self.k.max(1))
            .take(self.n)
            .flat_map(pack_row)
            .collect()
    }
}

// ANCHOR: quantize_rows
/// Dynamic activation quantization: each row of `x` gets its own symmetric int8 scale, chosen
/// from that row's largest |value| when the row arrives (no calibration set needed).
pub fn quantize_rows(x: &Tensor2D) -> (Vec<i8>, Vec<f32>) {
    let (m, k) = x.shape();
    let mut q = Vec::with_capacity(m * k);
    let mut scales = Vec::with_capacity(m);
    for row in x.data().chunks(k.max(1)).take(m) {
        let hi = row.iter().fold(0.0f32, |a, v| a.max(v.abs()));
        let scale = if hi > 0.0 { hi / 127.0 } else { 1.0 };
        q.extend(
            row.iter()
                .map(|&v| (v / scale).round_ties_even().clamp(-127.0, 127.0) as i8),
        );
        scales.push(scale);
    }
    (q, scales)
}
// ANCHOR_END: quantize_rows

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_dot_equals_the_byte_wise_sum() {
        let (a, b) = ([1i8, -2, 127, -128], [-128i8, 127, -1, 3]);
        let want: i32 = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum();
        assert_eq!(dot4_i8_packed(pack_i8x4(a), pack_i8x4(b)), want);
    }

    #[test]
    fn gemm_sums_exactly_in_i32() {
        let k = 1000;
        let a = vec![-127i8; k];
        let b = vec![-127i8; 2 * k];
        assert_eq!(gemm_i8_i32(&a, &b, 1, k, 2), vec![127 * 127 * 1000; 2]);
    }

    #[test]
    fn padding_keeps_odd_lengths_exact() {
        let row = [3i8, -4, 5, 6, 7];
        let words = pack_row(&row);
        assert_eq!(words.len(), 2);
        let ones = pack_row(&[1; 5]);
        let dot: i32 = words
            .iter()
            .zip(&ones)
            .map(|(&a, &b)| dot4_i8_packed(a, b))
            .sum();
        assert_eq!(dot, 17);
    }
}
