//! Wrong: `matvec` expands to the dense matrix and multiplies only its non-zero entries. The
//! values are right, and a pruned position is never multiplied, but the product builds the
//! whole dense matrix and walks every column: the work the compressed form exists to save.

use crate::{PruneError, Sparse24};

/// Keeps the two largest |w| of every group of four consecutive weights of each row (the lower
/// position first on ties) and stores them with their positions, ascending within the group.
pub fn prune_2_4(w: &[f32], rows: usize, cols: usize) -> Result<Sparse24, PruneError> {
    if rows.checked_mul(cols) != Some(w.len()) {
        return Err(PruneError::WrongLength {
            rows,
            cols,
            got: w.len(),
        });
    }
    if !cols.is_multiple_of(4) {
        return Err(PruneError::NotMultipleOfFour { cols });
    }
    let mut values = Vec::with_capacity(w.len() / 2);
    let mut positions = Vec::with_capacity(w.len() / 2);
    for group in w.chunks_exact(4) {
        let mut order = [0u8, 1, 2, 3];
        // Stable: on equal magnitudes the lower position stays first.
        order.sort_by(|&a, &b| {
            group[usize::from(b)]
                .abs()
                .total_cmp(&group[usize::from(a)].abs())
        });
        let mut kept = [order[0], order[1]];
        kept.sort_unstable();
        for p in kept {
            values.push(group[usize::from(p)]);
            positions.push(p);
        }
    }
    Ok(Sparse24 {
        rows,
        cols,
        values,
        positions,
    })
}

/// `W · x`: for each row, the kept values times the x at their positions.
pub(crate) fn matvec(w: &Sparse24, x: &[f32]) -> Result<Vec<f32>, PruneError> {
    if x.len() != w.cols {
        return Err(PruneError::InputLength {
            cols: w.cols,
            got: x.len(),
        });
    }
    // Wrong: a dense copy of the matrix, then a loop over every column that skips the zeros.
    let dense = w.to_dense();
    Ok((0..w.rows)
        .map(|r| {
            dense[r * w.cols..(r + 1) * w.cols]
                .iter()
                .zip(x)
                .filter(|(a, _)| **a != 0.0)
                .map(|(a, b)| a * b)
                .sum()
        })
        .collect())
}
