//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m3_prune_2_4::{PruneError, prune_2_4};

/// SplitMix64: reproducible weights without a dependency.
fn weights(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

const SHAPES: [(usize, usize); 4] = [(1, 4), (3, 8), (7, 36), (16, 128)];

#[test]
fn prune_2_4_hidden_pattern_is_valid() {
    for (rows, cols) in SHAPES {
        let s = prune_2_4(&weights(rows * cols, 1), rows, cols).unwrap();
        assert_eq!((s.rows, s.cols), (rows, cols));
        assert_eq!(s.values.len(), rows * cols / 2);
        assert_eq!(s.positions.len(), rows * cols / 2);
        for pair in s.positions.chunks(2) {
            assert!(
                pair[0] < pair[1] && pair[1] < 4,
                "positions {pair:?} in {rows}×{cols}"
            );
        }
        let dense = s.to_dense();
        for group in dense.chunks(4) {
            assert!(
                group.iter().filter(|v| **v != 0.0).count() <= 2,
                "{group:?}"
            );
        }
    }
    grade_ok!("prune_2_4_hidden_pattern_is_valid");
}

#[test]
fn prune_2_4_hidden_keeps_the_largest_magnitudes() {
    for (rows, cols) in SHAPES {
        let w = weights(rows * cols, 2);
        let s = prune_2_4(&w, rows, cols).unwrap();
        let dense = s.to_dense();
        for (g, (orig, kept)) in w.chunks(4).zip(dense.chunks(4)).enumerate() {
            let kept_min = (0..4)
                .filter(|&i| kept[i] != 0.0)
                .map(|i| orig[i].abs())
                .fold(f32::MAX, f32::min);
            let dropped_max = (0..4)
                .filter(|&i| kept[i] == 0.0)
                .map(|i| orig[i].abs())
                .fold(0.0, f32::max);
            assert!(
                kept_min >= dropped_max,
                "group {g}: {orig:?} kept as {kept:?}"
            );
            for i in 0..4 {
                assert!(
                    kept[i] == 0.0 || kept[i] == orig[i],
                    "values are kept unchanged"
                );
            }
        }
    }
    grade_ok!("prune_2_4_hidden_keeps_the_largest_magnitudes");
}

#[test]
fn prune_2_4_hidden_ties_keep_the_lower_position() {
    let s = prune_2_4(
        &[1.0, -1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 5.0, -5.0, 2.0],
        1,
        12,
    )
    .unwrap();
    assert_eq!(s.positions, vec![0, 1, 0, 1, 1, 2]);
    assert_eq!(s.values, vec![1.0, -1.0, 0.0, 0.0, 5.0, -5.0]);
    grade_ok!("prune_2_4_hidden_ties_keep_the_lower_position");
}

#[test]
fn prune_2_4_hidden_matvec_equals_dense_on_kept_weights() {
    for (rows, cols) in SHAPES {
        let s = prune_2_4(&weights(rows * cols, 3), rows, cols).unwrap();
        let x = weights(cols, 4);
        let dense = s.to_dense();
        let got = s.matvec(&x).unwrap();
        assert_eq!(got.len(), rows);
        for r in 0..rows {
            let want: f64 = (0..cols)
                .map(|c| f64::from(dense[r * cols + c]) * f64::from(x[c]))
                .sum();
            assert!(
                (f64::from(got[r]) - want).abs() < 1e-4,
                "row {r} of {rows}×{cols}: {} vs {want}",
                got[r]
            );
        }
    }
    let empty = prune_2_4(&[], 0, 8).unwrap();
    assert_eq!(empty.matvec(&[0.0; 8]).unwrap(), Vec::<f32>::new());
    grade_ok!("prune_2_4_hidden_matvec_equals_dense_on_kept_weights");
}

#[test]
fn prune_2_4_hidden_bad_shapes_are_errors() {
    assert_eq!(
        prune_2_4(&[1.0; 7], 2, 4),
        Err(PruneError::WrongLength {
            rows: 2,
            cols: 4,
            got: 7
        })
    );
    assert_eq!(
        prune_2_4(&[1.0; 10], 2, 5),
        Err(PruneError::NotMultipleOfFour { cols: 5 })
    );
    let s = prune_2_4(&[1.0; 8], 2, 4).unwrap();
    assert_eq!(
        s.matvec(&[1.0; 3]),
        Err(PruneError::InputLength { cols: 4, got: 3 })
    );
    grade_ok!("prune_2_4_hidden_bad_shapes_are_errors");
}
