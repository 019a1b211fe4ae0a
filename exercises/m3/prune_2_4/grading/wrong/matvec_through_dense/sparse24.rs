//! Wrong: `matvec` goes through `to_dense()` and a dense product instead of reading only the
//! compressed values (see the comment in `matvec`).

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
    // Wrong: expands to the dense matrix and multiplies every weight, zeros included. The
    // result matches while `x` is finite, but it does twice the work the format exists to save,
    // and a pruned weight still meets its input: 0 × ∞ or 0 × NaN makes the row NaN.
    let dense = w.to_dense();
    Ok((0..w.rows)
        .map(|r| {
            dense[r * w.cols..(r + 1) * w.cols]
                .iter()
                .zip(x)
                .map(|(a, b)| a * b)
                .sum()
        })
        .collect())
}
