//! Sparse (CSR) vs dense matrix-vector products: which wins depends on the density.

/// A dense matrix whose number of entries does not match the shape it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a {rows}×{cols} matrix has {} entries, but {given} were given: pass rows·cols values, \
     row by row",
    rows * cols
)]
pub struct DenseSizeError {
    pub rows: usize,
    pub cols: usize,
    pub given: usize,
}

// ANCHOR: csr
/// A sparse matrix in compressed sparse row form: row `r`'s non-zeros are
/// `values[row_start[r]..row_start[r + 1]]`, in the columns `cols[…]` at the same positions.
pub struct Csr {
    pub rows: usize,
    pub cols_count: usize,
    row_start: Vec<usize>,
    cols: Vec<u32>,
    values: Vec<f32>,
}
// ANCHOR_END: csr

// ANCHOR: csr_mat_vec
impl Csr {
    /// y = A·x: work proportional to the non-zeros, but each one is an indirect load of x.
    pub fn mat_vec(&self, x: &[f32], y: &mut [f32]) {
        for (r, out) in y.iter_mut().enumerate().take(self.rows) {
            let range = self.row_start[r]..self.row_start[r + 1];
            *out = self.cols[range.clone()]
                .iter()
                .zip(&self.values[range])
                .map(|(&c, &v)| v * x[c as usize])
                .sum();
        }
    }
}
// ANCHOR_END: csr_mat_vec

impl Csr {
    /// Keeps the non-zeros of a row-major dense matrix.
    pub fn from_dense(dense: &[f32], rows: usize, cols: usize) -> Result<Self, DenseSizeError> {
        if dense.len() != rows * cols {
            return Err(DenseSizeError {
                rows,
                cols,
                given: dense.len(),
            });
        }
        let mut csr = Self {
            rows,
            cols_count: cols,
            row_start: vec![0],
            cols: Vec::new(),
            values: Vec::new(),
        };
        for row in dense.chunks_exact(cols.max(1)).take(rows) {
            for (c, &v) in row.iter().enumerate() {
                if v != 0.0 {
                    csr.cols.push(c as u32);
                    csr.values.push(v);
                }
            }
            csr.row_start.push(csr.values.len());
        }
        while csr.row_start.len() < rows + 1 {
            csr.row_start.push(csr.values.len()); // a matrix with zero columns
        }
        Ok(csr)
    }

    pub fn nnz(&self) -> usize {
        self.values.len()
    }
}

// ANCHOR: dense
/// y = A·x for a dense row-major matrix: every entry is touched, zeros included, but in a
/// straight line the prefetcher and SIMD units love.
pub fn dense_mat_vec(a: &[f32], cols: usize, x: &[f32], y: &mut [f32]) {
    for (row, out) in a.chunks_exact(cols).zip(y.iter_mut()) {
        let mut lanes = [0.0f32; 8];
        let (body, tail) = row.split_at(cols - cols % 8);
        for (r8, x8) in body.chunks_exact(8).zip(x.chunks_exact(8)) {
            for i in 0..8 {
                lanes[i] += r8[i] * x8[i];
            }
        }
        let tail_sum: f32 = tail
            .iter()
            .zip(&x[cols - cols % 8..])
            .map(|(a, b)| a * b)
            .sum();
        *out = lanes.iter().sum::<f32>() + tail_sum;
    }
}
// ANCHOR_END: dense

/// A reproducible `rows`×`cols` matrix with about `density` of its entries non-zero.
pub fn random_matrix(rows: usize, cols: usize, density: f64, seed: u64) -> Vec<f32> {
    let mut x = seed | 1;
    (0..rows * cols)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            if u < density {
                ((x & 0xff) as f32 - 128.0) / 64.0
            } else {
                0.0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_and_dense_products_agree() {
        for (rows, cols, density) in [(1, 1, 1.0), (7, 13, 0.3), (64, 33, 0.05), (5, 16, 0.0)] {
            let a = random_matrix(rows, cols, density, 9);
            let x: Vec<f32> = (0..cols).map(|i| (i % 5) as f32 - 2.0).collect();
            let (mut y1, mut y2) = (vec![0.0; rows], vec![0.0; rows]);
            dense_mat_vec(&a, cols, &x, &mut y1);
            let csr = Csr::from_dense(&a, rows, cols).unwrap();
            csr.mat_vec(&x, &mut y2);
            for (p, q) in y1.iter().zip(&y2) {
                assert!((p - q).abs() <= 1e-4 * (1.0 + p.abs()), "{p} vs {q}");
            }
            assert_eq!(csr.nnz(), a.iter().filter(|v| **v != 0.0).count());
        }
    }

    #[test]
    fn a_wrong_size_is_an_error() {
        assert_eq!(
            Csr::from_dense(&[1.0; 5], 2, 3).err(),
            Some(DenseSizeError {
                rows: 2,
                cols: 3,
                given: 5
            })
        );
    }
}
