//! Properties of strided views that must hold for every shape, checked on random shapes.

use computational_graphs::strided::StridedView;
use proptest::prelude::*;

/// A shape of 1 to 4 dimensions, each 1 to 5 long, and counting data to fill it.
fn shape_and_data() -> impl Strategy<Value = (Vec<usize>, Vec<f32>)> {
    prop::collection::vec(1usize..=5, 1..=4).prop_map(|shape| {
        let n = shape.iter().product::<usize>();
        (shape, (0..n).map(|i| i as f32).collect())
    })
}

proptest! {
    #[test]
    fn transposing_twice_gives_the_original((shape, data) in shape_and_data(), a in 0usize..4, b in 0usize..4) {
        let m = StridedView::row_major(&data, &shape).unwrap();
        prop_assume!(a < m.ndim() && b < m.ndim());
        let back = m.transpose(a, b).unwrap().transpose(a, b).unwrap();
        prop_assert_eq!(back, m);
    }

    #[test]
    fn a_copy_of_any_transpose_holds_the_same_elements((shape, data) in shape_and_data(), a in 0usize..4, b in 0usize..4) {
        let m = StridedView::row_major(&data, &shape).unwrap();
        prop_assume!(a < m.ndim() && b < m.ndim());
        let t = m.transpose(a, b).unwrap();
        let copy = t.to_vec();
        let contiguous = StridedView::row_major(&copy, t.shape()).unwrap();
        prop_assert!(contiguous.is_contiguous());
        // every index reads the same number through the view and through the copy
        let mut sorted = copy.clone();
        sorted.sort_by(f32::total_cmp);
        prop_assert_eq!(sorted, data.clone());
        for (k, at) in t.indices().enumerate() {
            prop_assert_eq!(data[at], copy[k]);
        }
    }

    #[test]
    fn a_slice_reads_what_the_parent_reads((shape, data) in shape_and_data(), start in 0usize..5, len in 0usize..5, step in 1usize..3) {
        let m = StridedView::row_major(&data, &shape).unwrap();
        let size = shape[0];
        prop_assume!(start + len <= size);
        let s = m.slice(0, start, start + len, step).unwrap();
        prop_assert_eq!(s.shape()[0], len.div_ceil(step));
        let mut index = vec![0; m.ndim()];
        for i in 0..s.shape()[0] {
            index[0] = i;
            let mut parent = index.clone();
            parent[0] = start + i * step;
            prop_assert_eq!(s.get(&index).unwrap(), m.get(&parent).unwrap());
        }
    }

    #[test]
    fn broadcasting_a_row_repeats_it(cols in 1usize..6, rows in 1usize..6) {
        let data: Vec<f32> = (0..cols).map(|i| i as f32).collect();
        let row = StridedView::row_major(&data, &[cols]).unwrap();
        let b = row.broadcast_to(&[rows, cols]).unwrap();
        let expected: Vec<f32> = (0..rows).flat_map(|_| data.iter().copied()).collect();
        prop_assert_eq!(b.to_vec(), expected);
        prop_assert_eq!(b.strides()[0], 0);
    }
}
