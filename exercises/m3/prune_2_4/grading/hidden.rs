//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use ex_m3_prune_2_4::{PruneError, prune_2_4};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Bytes requested from the allocator while `f` runs, counted by dhat (which needs a running
/// profiler: the test starts one; nextest runs each test in its own process). dhat counts every
/// thread of the process: the fewest bytes over three passes is `f`'s own count.
fn bytes_allocated(f: impl Fn()) -> u64 {
    (0..3)
        .map(|_| {
            let before = dhat::HeapStats::get().total_bytes;
            f();
            dhat::HeapStats::get().total_bytes - before
        })
        .min()
        .unwrap_or(0)
}

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
        grade_record!("positions", (s.rows, s.cols, &s.positions), 0.0);
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
        grade_record!("pruned", &s, 0.0);
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
    grade_record!("ties", &s, 0.0);
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
        // Any order of the two multiply-adds per group is right: a relative tolerance.
        grade_record!("matvec", &got, 1e-5);
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

/// The compressed product never reads `x` where a weight was pruned: an infinity or a NaN there
/// leaves the result finite. A product through `to_dense()` multiplies it by the stored zero
/// (0 × ∞ = NaN); one that skips the zeros of the dense form passes here and fails the
/// allocation test.
#[test]
fn prune_2_4_hidden_matvec_skips_pruned_positions() {
    for (rows, cols) in SHAPES {
        // No zero weights: every kept value is non-zero, so only pruned positions are zero.
        let w: Vec<f32> = weights(rows * cols, 5)
            .into_iter()
            .map(|v| if v == 0.0 { 0.5 } else { v })
            .collect();
        let s = prune_2_4(&w, rows, cols).unwrap();
        let x = weights(cols, 6);
        let want = s.matvec(&x).unwrap();
        // Only a column pruned in every row can carry a non-finite input without touching a
        // kept weight: with one row, that is every pruned position.
        let dense = s.to_dense();
        let pruned_everywhere: Vec<usize> = (0..cols)
            .filter(|&c| (0..rows).all(|r| dense[r * cols + c] == 0.0))
            .collect();
        let mut poisoned = x.clone();
        for (k, &c) in pruned_everywhere.iter().enumerate() {
            poisoned[c] = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN][k % 3];
        }
        let got = s.matvec(&poisoned).unwrap();
        grade_record!("poisoned", &got, 1e-5);
        assert_eq!(
            got, want,
            "{rows}×{cols}: ±inf/NaN at pruned columns {pruned_everywhere:?} changed the result"
        );
    }
    // One row, so every pruned position can be poisoned.
    let s = prune_2_4(&[1.0, -3.0, 2.0, 0.25, 4.0, 0.5, -0.5, 8.0], 1, 8).unwrap();
    let got = s.matvec(&[
        f32::NAN,
        1.0,
        1.0,
        f32::INFINITY,
        1.0,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0,
    ]);
    grade_record!("poisoned_row", &got, 0.0);
    assert_eq!(
        got,
        Ok(vec![11.0]),
        "-3 + 2 + 4 + 8 from the kept weights only"
    );
    grade_ok!("prune_2_4_hidden_matvec_skips_pruned_positions");
}

/// The product works on the compressed form: it allocates its result and nothing the size of a
/// row or of the matrix. Expanding to dense (all at once or a row at a time) and skipping the
/// zeros gives the right values but allocates 64 KiB (or 4 KiB per row) here.
#[test]
fn prune_2_4_hidden_matvec_allocates_only_its_result() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let (rows, cols) = (16, 1024);
    let s = prune_2_4(&weights(rows * cols, 7), rows, cols).unwrap();
    let x = weights(cols, 8);
    let got = s.matvec(&x).unwrap();
    grade_record!("matvec_large", &got, 1e-5);
    // The result, grown by doubling at worst, and some slack.
    let limit = 4 * 4 * rows as u64 + 1024;
    let bytes = bytes_allocated(|| {
        let _ = s.matvec(&x);
    });
    assert!(
        bytes <= limit,
        "matvec allocated {bytes} bytes for a {rows}×{cols} matrix: read the kept values and \
         their positions directly, without building dense rows (at most {limit} bytes here)"
    );
    grade_ok!("prune_2_4_hidden_matvec_allocates_only_its_result");
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
    grade_record!("short_input", s.matvec(&[1.0; 3]), 0.0);
    assert_eq!(
        s.matvec(&[1.0; 3]),
        Err(PruneError::InputLength { cols: 4, got: 3 })
    );
    grade_ok!("prune_2_4_hidden_bad_shapes_are_errors");
}
