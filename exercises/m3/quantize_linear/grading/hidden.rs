//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.

use ex_m3_quantize_linear::{
    ShapeError, dequantize, gemm_i8, linear_int8, quantize, symmetric_scale,
};

fn bytes(n: usize, seed: u64) -> Vec<i8> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            // -127..=127: the symmetric range
            (((z ^ (z >> 31)) % 255) as i32 - 127) as i8
        })
        .collect()
}

fn floats(n: usize, seed: u64) -> Vec<f32> {
    bytes(n, seed)
        .into_iter()
        .map(|b| f32::from(b) / 37.0)
        .collect()
}

#[test]
fn quantize_linear_hidden_scale_and_known_values() {
    grade_record!(
        "known",
        (
            symmetric_scale(&[0.0, -0.0]),
            symmetric_scale(&[]),
            symmetric_scale(&[-12.7, 3.0]),
            quantize(&[0.5, -0.5, 0.26], 0.1),
            dequantize(&[-127, 3], 0.5),
        ),
        0.0
    );
    assert_eq!(symmetric_scale(&[0.0, -0.0]), 1.0);
    assert_eq!(symmetric_scale(&[]), 1.0);
    assert_eq!(symmetric_scale(&[-12.7, 3.0]), 12.7 / 127.0);
    assert_eq!(quantize(&[0.5, -0.5, 0.26], 0.1), vec![5, -5, 3]);
    assert_eq!(dequantize(&[-127, 3], 0.5), vec![-63.5, 1.5]);
    grade_ok!("quantize_linear_hidden_scale_and_known_values");
}

#[test]
fn quantize_linear_hidden_saturates_at_127() {
    let q = quantize(
        &[
            1000.0,
            -1000.0,
            12.8,
            -12.8,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ],
        0.1,
    );
    grade_record!("saturated", &q, 0.0);
    assert_eq!(q, vec![127, -127, 127, -127, 127, -127], "never -128");
    grade_ok!("quantize_linear_hidden_saturates_at_127");
}

#[test]
fn quantize_linear_hidden_rounds_ties_to_even() {
    grade_record!("ties", quantize(&[2.5, 3.5, -2.5, 0.5, -0.5], 1.0), 0.0);
    assert_eq!(
        quantize(&[2.5, 3.5, -2.5, 0.5, -0.5], 1.0),
        vec![2, 4, -2, 0, 0]
    );
    grade_ok!("quantize_linear_hidden_rounds_ties_to_even");
}

#[test]
fn quantize_linear_hidden_gemm_is_bit_exact_on_odd_shapes() {
    for (m, k, n) in [(1, 1, 1), (3, 5, 7), (13, 1, 9), (17, 33, 5), (2, 257, 3)] {
        let (a, b) = (bytes(m * k, 1), bytes(k * n, 2));
        let got = gemm_i8(&a, &b, m, k, n).unwrap();
        grade_record!("gemm", &got, 0.0);
        assert_eq!(got.len(), m * n);
        for i in 0..m {
            for j in 0..n {
                let want: i64 = (0..k)
                    .map(|p| i64::from(a[i * k + p]) * i64::from(b[p * n + j]))
                    .sum();
                assert_eq!(i64::from(got[i * n + j]), want, "({i}, {j}) of {m}×{k}×{n}");
            }
        }
    }
    assert!(gemm_i8(&[], &[], 0, 4, 0).unwrap().is_empty());
    grade_ok!("quantize_linear_hidden_gemm_is_bit_exact_on_odd_shapes");
}

#[test]
fn quantize_linear_hidden_gemm_extremes_do_not_overflow() {
    let k = 4000;
    let got = gemm_i8(&vec![-127; k], &vec![-127; k * 2], 1, k, 2).unwrap();
    grade_record!("extreme", &got, 0.0);
    assert_eq!(got, vec![127 * 127 * 4000; 2]);
    let got = gemm_i8(&vec![127; k], &vec![-127; k], 1, k, 1).unwrap();
    grade_record!("extreme", &got, 0.0);
    assert_eq!(got, vec![-127 * 127 * 4000]);
    grade_ok!("quantize_linear_hidden_gemm_extremes_do_not_overflow");
}

#[test]
fn quantize_linear_hidden_shape_errors() {
    grade_record!(
        "errors",
        (
            gemm_i8(&[1; 5], &[1; 6], 2, 3, 2),
            gemm_i8(&[1; 6], &[1; 5], 2, 3, 2)
        ),
        0.0
    );
    assert_eq!(
        gemm_i8(&[1; 5], &[1; 6], 2, 3, 2),
        Err(ShapeError::WrongLength {
            name: "a",
            rows: 2,
            cols: 3,
            got: 5
        })
    );
    assert_eq!(
        gemm_i8(&[1; 6], &[1; 5], 2, 3, 2),
        Err(ShapeError::WrongLength {
            name: "b",
            rows: 3,
            cols: 2,
            got: 5
        })
    );
    grade_ok!("quantize_linear_hidden_shape_errors");
}

#[test]
fn quantize_linear_hidden_linear_is_close_to_f32() {
    let (m, k, n) = (7, 45, 11);
    let (x, w) = (floats(m * k, 3), floats(k * n, 4));
    let got = linear_int8(&x, &w, m, k, n).unwrap();
    grade_record!("linear", &got, 1e-6);
    let (sx, sw) = (symmetric_scale(&x), symmetric_scale(&w));
    for i in 0..m {
        for j in 0..n {
            let exact: f32 = (0..k).map(|p| x[i * k + p] * w[p * n + j]).sum();
            // Each factor is off by at most half its step: bound the error of every product.
            let bound: f32 = (0..k)
                .map(|p| {
                    x[i * k + p].abs() * sw / 2.0 + w[p * n + j].abs() * sx / 2.0 + sx * sw / 4.0
                })
                .sum::<f32>()
                + 1e-3;
            assert!((got[i * n + j] - exact).abs() <= bound, "({i}, {j})");
        }
    }
    grade_ok!("quantize_linear_hidden_linear_is_close_to_f32");
}
