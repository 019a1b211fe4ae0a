//! Tensors as most frameworks store them: one flat storage, and a *view* of it made of an offset,
//! a shape and a stride per dimension.
//!
//! Element `[i0, i1, …]` of a view lives at `storage[offset + i0·stride0 + i1·stride1 + …]`.
//! Transposing swaps two strides, slicing moves the offset and scales a stride, and broadcasting
//! sets a stride to 0: none of them copies a number. A copy is needed only when code wants the
//! elements in row-major order and the strides say they are not ([`StridedView::is_contiguous`]).
//!
//! ```
//! use computational_graphs::strided::StridedView;
//! let storage: Vec<f32> = (0..6).map(|i| i as f32).collect(); // 0 1 2 3 4 5
//! let m = StridedView::row_major(&storage, &[2, 3])?;           // [[0,1,2],[3,4,5]]
//! let t = m.transpose(0, 1)?;                                   // [[0,3],[1,4],[2,5]]
//! assert_eq!((t.shape(), t.strides()), (&[3, 2][..], &[1, 3][..]));
//! assert_eq!(t.get(&[2, 1])?, 5.0);
//! assert!(!t.is_contiguous());
//! assert_eq!(t.to_vec(), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]); // the one copy
//! # Ok::<(), computational_graphs::strided::ViewError>(())
//! ```

mod dtype;
mod view;
mod walk;

pub use dtype::{DType, Element};
pub use view::{StridedView, ViewError};
pub use walk::{sum_2d, sum_contiguous_copy};
