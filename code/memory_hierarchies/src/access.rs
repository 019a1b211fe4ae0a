//! Access patterns: the same work done in different orders.

use crate::MemoryError;

// ANCHOR: orders
/// `0, 1, 2, …`: each cache line is used fully before the next one is loaded.
pub fn sequential_order(n: usize) -> Vec<u32> {
    (0..n as u32).collect()
}

/// `0, s, 2s, …, 1, 1+s, …`: every element once, but consecutive visits are `stride` apart.
pub fn strided_order(n: usize, stride: usize) -> Vec<u32> {
    let stride = stride.max(1);
    (0..stride)
        .flat_map(|start| (start..n).step_by(stride))
        .map(|i| i as u32)
        .collect()
}

/// Sums `data` in the order given by `order`. The three orders above cost the same number of
/// instructions; only where the loads land differs.
#[inline(never)]
pub fn sum_in_order(data: &[u64], order: &[u32]) -> u64 {
    order
        .iter()
        .fold(0u64, |acc, &i| acc.wrapping_add(data[i as usize]))
}
// ANCHOR_END: orders

/// A dense row-major matrix: element `(r, c)` lives at `data[r * cols + c]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f32>,
}

impl Matrix {
    pub fn new(rows: usize, cols: usize, data: Vec<f32>) -> Result<Self, MemoryError> {
        if data.len() != rows * cols {
            return Err(MemoryError::ShapeMismatch {
                rows,
                cols,
                len: data.len(),
            });
        }
        Ok(Self { rows, cols, data })
    }

    /// A matrix whose element `(r, c)` is a small integer depending on both, so a wrong
    /// index shows up in tests.
    pub fn ramp(rows: usize, cols: usize) -> Self {
        let data = (0..rows * cols).map(|i| (i % 251) as f32).collect();
        Self { rows, cols, data }
    }
}

// ANCHOR: row_col
/// Walks the matrix the way it is laid out: the inner loop moves along a row.
#[inline(never)]
pub fn sum_row_major(m: &Matrix) -> f32 {
    let mut sum = 0.0;
    for r in 0..m.rows {
        for c in 0..m.cols {
            sum += m.data[r * m.cols + c];
        }
    }
    sum
}

/// Same sum, loops swapped: the inner loop jumps `cols * 4` bytes per step, so each load
/// touches a different cache line (and, for wide matrices, a different page).
#[inline(never)]
pub fn sum_col_major(m: &Matrix) -> f32 {
    let mut sum = 0.0;
    for c in 0..m.cols {
        for r in 0..m.rows {
            sum += m.data[r * m.cols + c];
        }
    }
    sum
}
// ANCHOR_END: row_col

// ANCHOR: transpose
/// `out = mᵀ`, element by element: reads go along rows, writes go down columns.
#[inline(never)]
pub fn transpose_naive(m: &Matrix, out: &mut Matrix) {
    assert_transposable(m, out);
    for r in 0..m.rows {
        for c in 0..m.cols {
            out.data[c * m.rows + r] = m.data[r * m.cols + c];
        }
    }
}

/// `out = mᵀ`, one `block × block` tile at a time: a tile of the source and a tile of the
/// destination both fit in L1, so every cache line brought in is used fully before eviction.
#[inline(never)]
pub fn transpose_blocked(m: &Matrix, out: &mut Matrix, block: usize) {
    assert_transposable(m, out);
    let block = block.max(1);
    for r0 in (0..m.rows).step_by(block) {
        for c0 in (0..m.cols).step_by(block) {
            for r in r0..(r0 + block).min(m.rows) {
                for c in c0..(c0 + block).min(m.cols) {
                    out.data[c * m.rows + r] = m.data[r * m.cols + c];
                }
            }
        }
    }
}
// ANCHOR_END: transpose

/// An empty matrix of the transposed shape, ready for the transpose functions.
pub fn transposed_shape(m: &Matrix) -> Matrix {
    Matrix {
        rows: m.cols,
        cols: m.rows,
        data: vec![0.0; m.data.len()],
    }
}

fn assert_transposable(m: &Matrix, out: &Matrix) {
    // Both come from this crate's constructors; a mismatch here is a bug in the caller's code.
    assert!(
        out.rows == m.cols && out.cols == m.rows && out.data.len() == m.data.len(),
        "out must have the transposed shape: use transposed_shape(m)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::shuffled;

    #[test]
    fn every_order_visits_every_element_once() {
        let n = 1003;
        let data: Vec<u64> = (0..n as u64).map(|i| i * i).collect();
        let expected: u64 = data.iter().sum();
        for order in [sequential_order(n), strided_order(n, 16), shuffled(n, 9)] {
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, sequential_order(n));
            assert_eq!(sum_in_order(&data, &order), expected);
        }
        assert_eq!(strided_order(7, 3), vec![0, 3, 6, 1, 4, 2, 5]);
    }

    #[test]
    fn row_and_column_sums_agree() {
        let m = Matrix::ramp(37, 53);
        let expected: f32 = m.data.iter().sum();
        assert!((sum_row_major(&m) - expected).abs() < 1e-3 * expected);
        assert!((sum_col_major(&m) - expected).abs() < 1e-3 * expected);
    }

    #[test]
    fn both_transposes_are_correct_on_odd_shapes() {
        for (rows, cols, block) in [(1, 1, 4), (5, 3, 2), (37, 53, 8), (64, 17, 16)] {
            let m = Matrix::ramp(rows, cols);
            let (mut a, mut b) = (transposed_shape(&m), transposed_shape(&m));
            transpose_naive(&m, &mut a);
            transpose_blocked(&m, &mut b, block);
            assert_eq!(a, b);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(a.data[c * rows + r], m.data[r * cols + c]);
                }
            }
        }
    }

    #[test]
    fn matrix_rejects_a_buffer_of_the_wrong_length() {
        let err = Matrix::new(2, 3, vec![0.0; 5]).unwrap_err();
        assert!(err.to_string().contains("needs 6 elements"));
        assert!(Matrix::new(2, 3, vec![0.0; 6]).is_ok());
    }
}
