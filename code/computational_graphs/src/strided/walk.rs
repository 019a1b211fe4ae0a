//! Summing a 2D view: the same loop over different strides, for the walk figure.

use super::view::{StridedView, ViewError};

// ANCHOR: sum_2d
/// Sums a 2D view in its row-major order: rows outer, columns inner. The loop is the same for
/// every view; only the strides differ, and with them the distance between consecutive loads.
pub fn sum_2d(view: &StridedView<'_, f32>) -> Result<f32, ViewError> {
    let ([rows, cols], [row_stride, col_stride]) = (view.shape(), view.strides()) else {
        return Err(ViewError::Rank {
            given: view.ndim(),
            ndim: 2,
        });
    };
    let data = view.storage();
    let mut total = 0.0;
    for r in 0..*rows {
        let row_start = view.offset() + r * row_stride;
        for c in 0..*cols {
            total += data[row_start + c * col_stride];
        }
    }
    Ok(total)
}

/// Pays for the copy first (`to_vec` of the view), then sums the contiguous copy with the same loop.
pub fn sum_contiguous_copy(view: &StridedView<'_, f32>) -> Result<f32, ViewError> {
    let copy = view.to_vec();
    sum_2d(&StridedView::row_major(&copy, view.shape())?)
}
// ANCHOR_END: sum_2d

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposed_and_copied_sums_agree_on_exact_values() {
        // small integers: every order of summation gives the same f32
        let data: Vec<f32> = (0..12).map(|i| i as f32).collect();
        let m = StridedView::row_major(&data, &[3, 4]).unwrap();
        let t = m.transpose(0, 1).unwrap();
        assert_eq!(sum_2d(&m), Ok(66.0));
        assert_eq!(sum_2d(&t), Ok(66.0));
        assert_eq!(sum_contiguous_copy(&t), Ok(66.0));
        let v = StridedView::row_major(&data, &[12]).unwrap();
        assert!(matches!(
            sum_2d(&v),
            Err(ViewError::Rank { given: 1, ndim: 2 })
        ));
        assert_eq!(
            sum_2d(&m.slice(0, 1, 2, 1).unwrap()),
            Ok(4.0 + 5.0 + 6.0 + 7.0)
        );
    }
}
