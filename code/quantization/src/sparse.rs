//! Two ways to store pruned weights and skip their zeros: CSR (any pattern) and 2:4 (two
//! values and two 2-bit positions per group of four).

use computational_graphs::tensor::Tensor2D;
use rayon::prelude::*;

use crate::QuantError;

// ANCHOR: csr
/// Compressed sparse rows of Wᵀ: output column c's non-zeros are `values[starts[c]..starts[c+1]]`
/// at input positions `cols[..]` (same range).
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pub k: usize,
    pub n: usize,
    pub starts: Vec<u32>,
    pub cols: Vec<u32>,
    pub values: Vec<f32>,
}
// ANCHOR_END: csr

impl Csr {
    pub fn from_dense(w: &Tensor2D) -> Self {
        let (k, n) = w.shape();
        let (mut starts, mut cols, mut values) = (vec![0u32], Vec::new(), Vec::new());
        for c in 0..n {
            for r in 0..k {
                let v = w.get(r, c);
                if v != 0.0 {
                    cols.push(r as u32);
                    values.push(v);
                }
            }
            starts.push(values.len() as u32);
        }
        Self {
            k,
            n,
            starts,
            cols,
            values,
        }
    }

    // ANCHOR: csr_dot
    /// One output element: the dot product of input row `x` with column c's non-zeros.
    pub fn dot(&self, x: &[f32], c: usize) -> f32 {
        let range = self.starts[c] as usize..self.starts[c + 1] as usize;
        self.cols[range.clone()]
            .iter()
            .zip(&self.values[range])
            .map(|(&r, &v)| x[r as usize] * v)
            .sum()
    }
    // ANCHOR_END: csr_dot
}

// ANCHOR: sparse24
/// 2:4 weights: for each output column and each group of four inputs, the two kept values and
/// their positions (0–3) in one nibble: `first | second << 2`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sparse24 {
    pub k: usize,
    pub n: usize,
    /// n × k/2 values.
    pub values: Vec<f32>,
    /// n × k/4 nibbles, eight to a u32 (the first group in the lowest bits).
    pub index_words: Vec<u32>,
}
// ANCHOR_END: sparse24

impl Sparse24 {
    /// Packs weights that already follow the 2:4 pattern (see `prune_2_4`).
    pub fn from_pruned(w: &Tensor2D) -> Result<Self, QuantError> {
        let (k, n) = w.shape();
        let bad = |detail: String| QuantError::Shape {
            what: "2:4 packing",
            detail,
        };
        if !k.is_multiple_of(4) {
            return Err(bad(format!("k = {k} is not a multiple of 4")));
        }
        let groups = k / 4;
        let words_per_col = groups.div_ceil(8);
        let mut values = Vec::with_capacity(n * k / 2);
        let mut index_words = vec![0u32; n * words_per_col];
        for c in 0..n {
            for g in 0..groups {
                let kept: Vec<usize> = (0..4).filter(|&i| w.get(4 * g + i, c) != 0.0).collect();
                if kept.len() > 2 {
                    return Err(bad(format!(
                        "column {c}, rows {}..{} have {} non-zeros: prune to 2:4 first",
                        4 * g,
                        4 * g + 4,
                        kept.len()
                    )));
                }
                // Fewer than two non-zeros: fill with explicit zeros at unused positions.
                let mut pos = [0usize, 1];
                for (slot, &i) in kept.iter().enumerate() {
                    pos[slot] = i;
                }
                if kept.len() == 1 && pos[1] == pos[0] {
                    pos[1] = (pos[0] + 1) % 4;
                }
                values.push(w.get(4 * g + pos[0], c));
                values.push(w.get(4 * g + pos[1], c));
                let nibble = (pos[0] | pos[1] << 2) as u32;
                index_words[c * words_per_col + g / 8] |= nibble << (4 * (g % 8));
            }
        }
        Ok(Self {
            k,
            n,
            values,
            index_words,
        })
    }

    // ANCHOR: sparse24_dot
    /// One output element: for each group, two products at the positions its nibble names.
    pub fn dot(&self, x: &[f32], c: usize) -> f32 {
        let (groups, words_per_col) = (self.k / 4, (self.k / 4).div_ceil(8));
        let mut acc = 0.0;
        for g in 0..groups {
            let nibble = self.index_words[c * words_per_col + g / 8] >> (4 * (g % 8));
            let v = &self.values[(c * groups + g) * 2..][..2];
            acc += x[4 * g + (nibble & 3) as usize] * v[0]
                + x[4 * g + (nibble >> 2 & 3) as usize] * v[1];
        }
        acc
    }
    // ANCHOR_END: sparse24_dot
}

/// The three layouts the timing figure compares, for `x · W` with W k×n.
pub enum Weights {
    /// Wᵀ, dense: n rows of k.
    DenseT(Vec<f32>, usize, usize),
    Csr(Csr),
    Sparse24(Sparse24),
}

impl Weights {
    pub fn dense(w: &Tensor2D) -> Self {
        let (k, n) = w.shape();
        let t = (0..n)
            .flat_map(|c| (0..k).map(move |r| (r, c)))
            .map(|(r, c)| w.get(r, c))
            .collect();
        Weights::DenseT(t, k, n)
    }

    fn n(&self) -> usize {
        match self {
            Weights::DenseT(_, _, n) => *n,
            Weights::Csr(s) => s.n,
            Weights::Sparse24(s) => s.n,
        }
    }

    fn dot(&self, x: &[f32], c: usize) -> f32 {
        match self {
            Weights::DenseT(t, k, _) => t[c * k..(c + 1) * k]
                .iter()
                .zip(x)
                .map(|(a, b)| a * b)
                .sum(),
            Weights::Csr(s) => s.dot(x, c),
            Weights::Sparse24(s) => s.dot(x, c),
        }
    }

    // ANCHOR: matmul
    /// `x · W` (no bias), rows of the output spread over rayon's threads.
    pub fn matmul(&self, x: &Tensor2D) -> Tensor2D {
        let (m, k, n) = (x.rows(), x.cols(), self.n());
        let mut out = vec![0.0f32; m * n];
        out.par_chunks_mut(n.max(1))
            .zip(x.data().par_chunks(k.max(1)))
            .for_each(|(o, xr)| {
                for (c, y) in o.iter_mut().enumerate() {
                    *y = self.dot(xr, c);
                }
            });
        Tensor2D::new(m, n, out).expect("m×n values")
    }
    // ANCHOR_END: matmul
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prune::{prune_2_4, prune_magnitude};
    use computational_graphs::ops::cpu;
    use computational_graphs::rng::SplitMix64;

    #[test]
    fn every_layout_computes_the_dense_product() {
        let mut rng = SplitMix64::new(9);
        let x = Tensor2D::random(5, 12, 1.0, &mut rng);
        let w = prune_2_4(&prune_magnitude(
            &Tensor2D::random(12, 7, 1.0, &mut rng),
            0.3,
        ))
        .unwrap();
        let want = cpu::linear(&x, &w, &Tensor2D::zeros(1, 7)).unwrap();
        for layout in [
            Weights::dense(&w),
            Weights::Csr(Csr::from_dense(&w)),
            Weights::Sparse24(Sparse24::from_pruned(&w).unwrap()),
        ] {
            assert!(layout.matmul(&x).max_abs_diff(&want) < 1e-5);
        }
    }

    #[test]
    fn a_dense_matrix_is_not_2_4() {
        let err =
            Sparse24::from_pruned(&Tensor2D::from_rows(&[[1.0], [1.0], [1.0], [0.0]])).unwrap_err();
        assert!(err.to_string().contains("prune to 2:4"));
    }
}
