//! A strided view: storage + offset + shape + strides, and the operations that only rewrite them.

use super::dtype::{DType, Element};

/// Why a view cannot be made; every message says what to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("shape {shape:?} holds {needed} elements but the storage has {len}: fix the shape")]
    WrongLength {
        shape: Vec<usize>,
        needed: usize,
        len: usize,
    },
    #[error(
        "the view reaches element {last} but the storage has {len}: fix the offset, shape or strides"
    )]
    OutOfStorage { last: usize, len: usize },
    #[error(
        "{given} shape or stride entries for a view of {ndim} dimensions: give one per dimension"
    )]
    Rank { given: usize, ndim: usize },
    #[error("dimension {dim} does not exist in a view of {ndim} dimensions")]
    NoSuchDim { dim: usize, ndim: usize },
    #[error("index {index} is out of range for dimension {dim} of size {size}")]
    Index {
        dim: usize,
        index: usize,
        size: usize,
    },
    #[error(
        "slice {start}..{end} step {step} does not fit dimension {dim} of size {size}: keep start ≤ end ≤ size and step ≥ 1"
    )]
    Slice {
        dim: usize,
        start: usize,
        end: usize,
        step: usize,
        size: usize,
    },
    #[error("shape {shape:?} has more elements than a usize can count: use smaller dimensions")]
    TooLarge { shape: Vec<usize> },
    #[error("cannot broadcast shape {from:?} to {to:?}: each dimension must match or be 1")]
    Broadcast { from: Vec<usize>, to: Vec<usize> },
    #[error(
        "this view is not contiguous (strides {strides:?}), so reshaping it would need a copy: call to_vec() and view the copy"
    )]
    NeedsCopy { strides: Vec<usize> },
}

// ANCHOR: view
/// A view of `storage`: element `index` lives at `offset + Σ index[d] · strides[d]`.
/// Strides count elements, not bytes; a stride of 0 repeats one element along that dimension.
#[derive(Clone, Debug, PartialEq)]
pub struct StridedView<'a, T> {
    storage: &'a [T],
    offset: usize,
    shape: Vec<usize>,
    strides: Vec<usize>,
}
// ANCHOR_END: view

/// The number of elements of `shape`, if it fits in a `usize`.
fn element_count(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |n, &s| n.checked_mul(s))
}

/// Row-major strides: the last dimension is adjacent in memory, each earlier one jumps over a
/// whole block of the later ones.
// ANCHOR: row_major_strides
pub fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}
// ANCHOR_END: row_major_strides

impl<'a, T: Element> StridedView<'a, T> {
    /// The whole storage seen as a row-major tensor of `shape`.
    pub fn row_major(storage: &'a [T], shape: &[usize]) -> Result<Self, ViewError> {
        let needed = element_count(shape).ok_or_else(|| ViewError::TooLarge {
            shape: shape.to_vec(),
        })?;
        if needed != storage.len() {
            return Err(ViewError::WrongLength {
                shape: shape.to_vec(),
                needed,
                len: storage.len(),
            });
        }
        Ok(Self {
            storage,
            offset: 0,
            shape: shape.to_vec(),
            strides: row_major_strides(shape),
        })
    }

    /// Any view, checked: every element it can address must lie inside `storage`.
    pub fn from_parts(
        storage: &'a [T],
        offset: usize,
        shape: &[usize],
        strides: &[usize],
    ) -> Result<Self, ViewError> {
        if shape.len() != strides.len() {
            return Err(ViewError::Rank {
                given: strides.len(),
                ndim: shape.len(),
            });
        }
        if element_count(shape).is_none() {
            return Err(ViewError::TooLarge {
                shape: shape.to_vec(),
            });
        }
        let view = Self {
            storage,
            offset,
            shape: shape.to_vec(),
            strides: strides.to_vec(),
        };
        if view.is_empty() {
            // An empty view reads nothing, but `reshape` still slices the storage at its
            // offset, so the offset may be at most one past the end.
            if offset > storage.len() {
                return Err(ViewError::OutOfStorage {
                    last: offset,
                    len: storage.len(),
                });
            }
        } else {
            let last = shape.iter().zip(strides).try_fold(offset, |acc, (&n, &s)| {
                (n - 1)
                    .checked_mul(s)
                    .and_then(|step| acc.checked_add(step))
            });
            match last {
                Some(last) if last < storage.len() => {}
                _ => {
                    return Err(ViewError::OutOfStorage {
                        last: last.unwrap_or(usize::MAX),
                        len: storage.len(),
                    });
                }
            }
        }
        Ok(view)
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }
    pub fn offset(&self) -> usize {
        self.offset
    }
    pub fn storage(&self) -> &'a [T] {
        self.storage
    }
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }
    /// The number of elements the view shows (a broadcast view shows more than it stores).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Strides in bytes, as NumPy reports them: element strides × the dtype's size.
    pub fn byte_strides(&self) -> Vec<usize> {
        let size = T::DTYPE.size_bytes();
        self.strides.iter().map(|s| s * size).collect()
    }

    // ANCHOR: get
    /// Where `index` lives in the storage.
    pub fn storage_index(&self, index: &[usize]) -> Result<usize, ViewError> {
        if index.len() != self.ndim() {
            return Err(ViewError::Rank {
                given: index.len(),
                ndim: self.ndim(),
            });
        }
        let mut at = self.offset;
        for (dim, ((&i, &size), &stride)) in
            index.iter().zip(&self.shape).zip(&self.strides).enumerate()
        {
            if i >= size {
                return Err(ViewError::Index {
                    dim,
                    index: i,
                    size,
                });
            }
            at += i * stride;
        }
        Ok(at)
    }

    pub fn get(&self, index: &[usize]) -> Result<T, ViewError> {
        Ok(self.storage[self.storage_index(index)?])
    }
    // ANCHOR_END: get

    // ANCHOR: transpose
    /// Swaps dimensions `a` and `b`: the same numbers, read in another order. No copy.
    pub fn transpose(&self, a: usize, b: usize) -> Result<Self, ViewError> {
        self.check_dim(a)?;
        self.check_dim(b)?;
        let mut view = self.clone();
        view.shape.swap(a, b);
        view.strides.swap(a, b);
        Ok(view)
    }

    /// Elements `start, start+step, …` (below `end`) of dimension `dim`. No copy: the offset
    /// moves to `start` and the stride grows `step`-fold.
    pub fn slice(
        &self,
        dim: usize,
        start: usize,
        end: usize,
        step: usize,
    ) -> Result<Self, ViewError> {
        self.check_dim(dim)?;
        let size = self.shape[dim];
        if start > end || end > size || step == 0 {
            return Err(ViewError::Slice {
                dim,
                start,
                end,
                step,
                size,
            });
        }
        let mut view = self.clone();
        if end > start {
            view.offset += start * self.strides[dim];
        }
        view.shape[dim] = (end - start).div_ceil(step);
        view.strides[dim] *= step;
        Ok(view)
    }
    // ANCHOR_END: transpose

    // ANCHOR: broadcast
    /// The view repeated to `shape` by NumPy's rules: shapes line up from the right, a
    /// dimension of size 1 may grow, and missing leading dimensions are added. Every repeated
    /// dimension gets stride 0, so the repetition costs no memory.
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Self, ViewError> {
        let refuse = || ViewError::Broadcast {
            from: self.shape.clone(),
            to: shape.to_vec(),
        };
        let extra = shape.len().checked_sub(self.ndim()).ok_or_else(refuse)?;
        if element_count(shape).is_none() {
            return Err(ViewError::TooLarge {
                shape: shape.to_vec(),
            });
        }
        let mut strides = vec![0; shape.len()];
        for d in 0..self.ndim() {
            let (have, want) = (self.shape[d], shape[extra + d]);
            strides[extra + d] = match (have, want) {
                _ if have == want => self.strides[d],
                (1, _) => 0,
                _ => return Err(refuse()),
            };
        }
        Ok(Self {
            storage: self.storage,
            offset: self.offset,
            shape: shape.to_vec(),
            strides,
        })
    }
    // ANCHOR_END: broadcast

    // ANCHOR: contiguous
    /// Are the elements, in row-major order of the view, one after another in the storage?
    /// Dimensions of size 1 are skipped: their stride is never used.
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1;
        for (&size, &stride) in self.shape.iter().zip(&self.strides).rev() {
            if size != 1 && stride != expected {
                return false;
            }
            expected *= size;
        }
        true
    }

    /// The same elements as a `shape` tensor: free for a contiguous view, refused otherwise
    /// (the caller decides to pay for the copy with [`StridedView::to_vec`]).
    pub fn reshape(&self, shape: &[usize]) -> Result<Self, ViewError> {
        if !self.is_contiguous() {
            return Err(ViewError::NeedsCopy {
                strides: self.strides.clone(),
            });
        }
        let start = self.offset;
        let len = self.len();
        StridedView::row_major(&self.storage[start..start + len], shape)
    }

    /// The elements in row-major order of the view, copied into a new vector.
    pub fn to_vec(&self) -> Vec<T> {
        // The common 2D case as two plain loops (the odometer below handles any rank).
        if let ([rows, cols], [row_stride, col_stride]) = (self.shape(), self.strides()) {
            let mut out = Vec::with_capacity(rows * cols);
            for r in 0..*rows {
                let start = self.offset + r * row_stride;
                out.extend((0..*cols).map(|c| self.storage[start + c * col_stride]));
            }
            return out;
        }
        self.indices().map(|at| self.storage[at]).collect()
    }
    // ANCHOR_END: contiguous

    /// Storage positions of the elements in row-major order of the view (an odometer over the
    /// index: the last dimension turns fastest).
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        let mut index = vec![0usize; self.ndim()];
        let mut remaining = self.len();
        std::iter::from_fn(move || {
            if remaining == 0 {
                return None;
            }
            remaining -= 1;
            let at = self.offset
                + index
                    .iter()
                    .zip(&self.strides)
                    .map(|(i, s)| i * s)
                    .sum::<usize>();
            for d in (0..index.len()).rev() {
                index[d] += 1;
                if index[d] < self.shape[d] {
                    break;
                }
                index[d] = 0;
            }
            Some(at)
        })
    }

    fn check_dim(&self, dim: usize) -> Result<(), ViewError> {
        if dim < self.ndim() {
            Ok(())
        } else {
            Err(ViewError::NoSuchDim {
                dim,
                ndim: self.ndim(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting(n: usize) -> Vec<f32> {
        (0..n).map(|i| i as f32).collect()
    }

    #[test]
    fn row_major_strides_of_a_3d_shape() {
        assert_eq!(row_major_strides(&[2, 3, 4]), [12, 4, 1]);
        assert_eq!(row_major_strides(&[]), Vec::<usize>::new());
    }

    #[test]
    fn shape_must_match_storage() {
        let data = counting(5);
        let err = StridedView::row_major(&data, &[2, 3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "shape [2, 3] holds 6 elements but the storage has 5: fix the shape"
        );
    }

    #[test]
    fn transpose_swaps_strides_and_shares_storage() {
        let data = counting(6);
        let m = StridedView::row_major(&data, &[2, 3]).unwrap();
        let t = m.transpose(0, 1).unwrap();
        assert_eq!(t.shape(), [3, 2]);
        assert_eq!(t.strides(), [1, 3]);
        assert!(std::ptr::eq(t.storage(), m.storage()));
        for r in 0..2 {
            for c in 0..3 {
                assert_eq!(m.get(&[r, c]).unwrap(), t.get(&[c, r]).unwrap());
            }
        }
        assert!(m.is_contiguous() && !t.is_contiguous());
        assert_eq!(t.to_vec(), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    }

    #[test]
    fn slice_moves_offset_and_scales_stride() {
        let data = counting(20);
        let m = StridedView::row_major(&data, &[4, 5]).unwrap();
        // rows 1..3, every second column: [[5, 7, 9], [10, 12, 14]]
        let s = m.slice(0, 1, 3, 1).unwrap().slice(1, 0, 5, 2).unwrap();
        assert_eq!(
            (s.offset(), s.shape(), s.strides()),
            (5, &[2, 3][..], &[5, 2][..])
        );
        assert_eq!(s.to_vec(), [5.0, 7.0, 9.0, 10.0, 12.0, 14.0]);
        assert!(!s.is_contiguous());
        // a block of whole rows stays contiguous, so it can be reshaped for free
        let rows = m.slice(0, 2, 4, 1).unwrap();
        assert!(rows.is_contiguous());
        assert_eq!(
            rows.reshape(&[10]).unwrap().to_vec(),
            counting(20)[10..].to_vec()
        );
        assert!(matches!(s.reshape(&[6]), Err(ViewError::NeedsCopy { .. })));
    }

    #[test]
    fn bad_slices_and_indices_are_refused() {
        let data = counting(6);
        let m = StridedView::row_major(&data, &[2, 3]).unwrap();
        assert!(matches!(m.slice(1, 2, 4, 1), Err(ViewError::Slice { .. })));
        assert!(matches!(m.slice(1, 0, 3, 0), Err(ViewError::Slice { .. })));
        assert!(matches!(
            m.slice(2, 0, 1, 1),
            Err(ViewError::NoSuchDim { .. })
        ));
        assert_eq!(
            m.get(&[2, 0]),
            Err(ViewError::Index {
                dim: 0,
                index: 2,
                size: 2
            })
        );
        assert!(matches!(m.get(&[0]), Err(ViewError::Rank { .. })));
        let empty = m.slice(1, 3, 3, 1).unwrap();
        assert_eq!((empty.len(), empty.to_vec()), (0, vec![]));
    }

    #[test]
    fn broadcasting_uses_stride_zero() {
        let bias = [10.0f32, 20.0, 30.0];
        let row = StridedView::row_major(&bias, &[3]).unwrap();
        let b = row.broadcast_to(&[2, 3]).unwrap();
        assert_eq!(b.strides(), [0, 1]);
        assert_eq!(b.to_vec(), [10.0, 20.0, 30.0, 10.0, 20.0, 30.0]);
        let column = StridedView::row_major(&bias, &[3, 1]).unwrap();
        let c = column.broadcast_to(&[3, 2]).unwrap();
        assert_eq!(c.strides(), [1, 0]);
        assert_eq!(c.to_vec(), [10.0, 10.0, 20.0, 20.0, 30.0, 30.0]);
        assert!(!c.is_contiguous());
        let err = row.broadcast_to(&[2, 4]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot broadcast shape [3] to [2, 4]: each dimension must match or be 1"
        );
        assert!(row.broadcast_to(&[]).is_err());
        assert!(matches!(
            row.broadcast_to(&[usize::MAX, 2, 3]),
            Err(ViewError::TooLarge { .. })
        ));
    }

    #[test]
    fn from_parts_refuses_views_past_the_storage() {
        let data = counting(6);
        assert!(StridedView::from_parts(&data, 0, &[3, 2], &[2, 1]).is_ok());
        assert_eq!(
            StridedView::from_parts(&data, 1, &[3, 2], &[2, 1]),
            Err(ViewError::OutOfStorage { last: 6, len: 6 })
        );
        assert!(StridedView::from_parts(&data, 0, &[2, usize::MAX], &[1, usize::MAX]).is_err());
        assert!(matches!(
            StridedView::from_parts(&data, 0, &[2], &[1, 1]),
            Err(ViewError::Rank { .. })
        ));
        // an empty view addresses nothing, but its offset must still lie in (or just past) the
        // storage: reshaping it slices the storage there
        let empty_at_end = StridedView::from_parts(&data, 6, &[0, 2], &[2, 1]).unwrap();
        assert_eq!(empty_at_end.reshape(&[0]).unwrap().len(), 0);
        assert_eq!(
            StridedView::from_parts(&data, 100, &[0], &[1]),
            Err(ViewError::OutOfStorage { last: 100, len: 6 })
        );
    }

    #[test]
    fn dtype_sets_byte_strides() {
        let bytes = [0u8; 6];
        let data = counting(6);
        let a = StridedView::row_major(&bytes, &[2, 3]).unwrap();
        let b = StridedView::row_major(&data, &[2, 3]).unwrap();
        assert_eq!((a.dtype(), a.byte_strides()), (DType::U8, vec![3, 1]));
        assert_eq!((b.dtype(), b.byte_strides()), (DType::F32, vec![12, 4]));
    }
}
