//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use ex_m0_gpu_vector_op::{SaxpyError, saxpy, saxpy_prefix, saxpy_prefix_limited, workgroups};
use gpu_context::GpuContext;

/// Deterministic values in [-4, 4) (a SplitMix64 stream), with no subnormals.
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 40) as f32 / (1u64 << 24) as f32 * 8.0 - 4.0
        })
        .collect()
}

/// `got` is `a·x + y` for the first `n` elements and `y` itself after them. A GPU may fuse the
/// multiply and the add (one rounding instead of two), hence a tolerance scaled to the terms; a
/// NaN or an infinity must match exactly.
fn check(got: &[f32], n: usize, a: f32, x: &[f32], y: &[f32], what: &str) {
    // For the grader: the length and up to 257 evenly spaced elements (the output stays small).
    let step = got.len().div_ceil(256).max(1);
    let sample: Vec<f32> = got.iter().step_by(step).chain(got.last()).copied().collect();
    grade_record!("saxpy", (got.len(), sample), 1e-6);
    assert_eq!(
        got.len(),
        y.len(),
        "{what}: the result has the wrong length"
    );
    for i in 0..y.len() {
        let g = got[i];
        if i >= n {
            assert!(
                g.to_bits() == y[i].to_bits(),
                "{what}: element {i} is past n = {n} and changed from {} to {g}",
                y[i]
            );
            continue;
        }
        let want = a * x[i] + y[i];
        let ok = if want.is_nan() {
            g.is_nan()
        } else if want.is_infinite() {
            g == want
        } else {
            (g - want).abs() <= 1e-6 * ((a * x[i]).abs() + y[i].abs()) + 1e-30
        };
        assert!(ok, "{what}: element {i} of {n} is {g}, want {want}");
    }
}

fn run(ctx: &GpuContext, n: usize, a: f32, seed: u64) {
    let (x, y) = (values(n, seed), values(n, seed + 1));
    let got = saxpy(ctx, a, &x, &y).unwrap();
    check(&got, n, a, &x, &y, &format!("n = {n}, a = {a}"));
}

#[test]
fn gpu_vector_op_hidden_one_element() {
    let ctx = GpuContext::for_tests();
    grade_record!("one", saxpy(&ctx, 3.0, &[2.0], &[1.0]), 1e-6);
    grade_record!("one", saxpy(&ctx, -0.5, &[4.0], &[0.25]), 1e-6);
    assert_eq!(saxpy(&ctx, 3.0, &[2.0], &[1.0]).unwrap(), [7.0]);
    assert_eq!(saxpy(&ctx, -0.5, &[4.0], &[0.25]).unwrap(), [-1.75]);
    grade_ok!("gpu_vector_op_hidden_one_element");
}

#[test]
fn gpu_vector_op_hidden_sizes_around_the_workgroup() {
    let ctx = GpuContext::for_tests();
    for (seed, n) in [2, 63, 64, 65, 127, 128, 129, 333].into_iter().enumerate() {
        run(&ctx, n, 1.25, 10 * seed as u64);
    }
    grade_ok!("gpu_vector_op_hidden_sizes_around_the_workgroup");
}

#[test]
fn gpu_vector_op_hidden_one_thousand() {
    let ctx = GpuContext::for_tests();
    for (seed, a) in [0.0, 1.0, -2.5, 1000.0].into_iter().enumerate() {
        run(&ctx, 1000, a, 100 + seed as u64);
    }
    grade_ok!("gpu_vector_op_hidden_one_thousand");
}

#[test]
fn gpu_vector_op_hidden_more_than_65535_workgroups() {
    let ctx = GpuContext::for_tests();
    // One row of 65 535 workgroups covers 4 194 240 elements; this needs more.
    run(&ctx, 65_535 * 64 + 77, 0.75, 7);
    grade_ok!("gpu_vector_op_hidden_more_than_65535_workgroups");
}

#[test]
fn gpu_vector_op_hidden_two_dimensional_grids_on_small_limits() {
    let ctx = GpuContext::for_tests();
    // (n, limit per dimension, extra elements of y past n that must stay as they are)
    for (n, limit, extra) in [(1000, 4, 0), (500, 3, 100), (129, 2, 70), (50, 1, 20)] {
        let (x, y) = (values(n, n as u64), values(n + extra, 3 * n as u64));
        let got = saxpy_prefix_limited(&ctx, n, 2.0, &x, &y, limit).unwrap();
        check(&got, n, 2.0, &x, &y, &format!("n = {n}, limit {limit}"));
    }
    grade_ok!("gpu_vector_op_hidden_two_dimensional_grids_on_small_limits");
}

#[test]
fn gpu_vector_op_hidden_leaves_elements_past_n_alone() {
    let ctx = GpuContext::for_tests();
    for n in [0, 1, 63, 100, 1000] {
        let (x, y) = (values(n + 37, 5 + n as u64), values(n + 100, 6 + n as u64));
        let got = saxpy_prefix(&ctx, n, -3.0, &x, &y).unwrap();
        check(
            &got,
            n,
            -3.0,
            &x,
            &y,
            &format!("n = {n} of {} elements", y.len()),
        );
    }
    grade_ok!("gpu_vector_op_hidden_leaves_elements_past_n_alone");
}

#[test]
fn gpu_vector_op_hidden_nan_and_infinity() {
    let ctx = GpuContext::for_tests();
    let (inf, nan) = (f32::INFINITY, f32::NAN);
    let x = [nan, 1.0, inf, 2.0, 1.0, -inf, 3.0, 0.0];
    let y = [1.0, nan, 0.0, inf, -inf, inf, 1e30, -2.0];
    for a in [2.0, 0.0, -1.0, inf] {
        let got = saxpy(&ctx, a, &x, &y).unwrap();
        check(&got, x.len(), a, &x, &y, &format!("a = {a}"));
    }
    grade_ok!("gpu_vector_op_hidden_nan_and_infinity");
}

#[test]
fn gpu_vector_op_hidden_empty_and_mismatched_inputs() {
    let ctx = GpuContext::for_tests();
    grade_record!("empty", saxpy(&ctx, 2.0, &[], &[]), 0.0);
    grade_record!("mismatch", saxpy(&ctx, 2.0, &[1.0, 2.0], &[1.0]), 0.0);
    grade_record!("short", saxpy_prefix(&ctx, 3, 1.0, &[1.0, 2.0, 3.0], &[1.0, 2.0]), 0.0);
    grade_record!("zero_limit", saxpy_prefix_limited(&ctx, 1, 1.0, &[1.0], &[1.0], 0), 0.0);
    grade_record!("cancel", saxpy(&ctx, 1.0, &[1.0, 2.0], &[1.0, -2.0]), 0.0);
    assert_eq!(saxpy(&ctx, 2.0, &[], &[]).unwrap(), Vec::<f32>::new());
    match saxpy(&ctx, 2.0, &[1.0, 2.0], &[1.0]) {
        Err(e @ SaxpyError::LengthMismatch { x: 2, y: 1 }) => assert!(!e.to_string().is_empty()),
        other => panic!("lengths 2 and 1 gave {other:?}"),
    }
    assert!(matches!(
        saxpy_prefix(&ctx, 3, 1.0, &[1.0, 2.0, 3.0], &[1.0, 2.0]),
        Err(SaxpyError::TooShort { n: 3, x: 3, y: 2 })
    ));
    assert!(matches!(
        saxpy_prefix_limited(&ctx, 1, 1.0, &[1.0], &[1.0], 0),
        Err(SaxpyError::ZeroLimit)
    ));
    assert_eq!(
        saxpy(&ctx, 1.0, &[1.0, 2.0], &[1.0, -2.0]).unwrap(),
        [2.0, 0.0]
    );
    grade_ok!("gpu_vector_op_hidden_empty_and_mismatched_inputs");
}

#[test]
fn gpu_vector_op_hidden_workgroups_fold_into_rows() {
    for (n, max, want) in [
        (1, 65_535, [1, 1, 1]),
        (64, 65_535, [1, 1, 1]),
        (65, 65_535, [2, 1, 1]),
        (65_535 * 64, 65_535, [65_535, 1, 1]),
        (65_535 * 64 + 1, 65_535, [65_535, 2, 1]),
        (u32::MAX, 65_535, [65_535, 1025, 1]),
        (1000, 4, [4, 4, 1]),
        (500, 3, [3, 3, 1]),
        (129, 2, [2, 2, 1]),
        (50, 1, [1, 1, 1]),
        (10_000, 1_000_000, [157, 1, 1]),
    ] {
        grade_record!("workgroups", workgroups(n, max), 0.0);
        assert_eq!(
            workgroups(n, max),
            want,
            "n = {n}, at most {max} per dimension"
        );
    }
    grade_ok!("gpu_vector_op_hidden_workgroups_fold_into_rows");
}
