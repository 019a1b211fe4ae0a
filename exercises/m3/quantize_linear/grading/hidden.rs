//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned; the grader compares it with the
//! reference solution's, outside this process.
//!
//! The references below are written out here, independent of the student's code: the GPU tests
//! feed the kernel operands built by the test, so a wrong CPU part cannot make the kernel look
//! right, nor the other way round.

use ex_m3_quantize_linear::{
    Asymmetric, MAX_DEPTH, QuantizedWeights, ShapeError, asymmetric_params, dequantize,
    dequantize_accumulators, gemm_i8, linear_int8, linear_int8_gpu, quantize, quantize_asymmetric,
    quantize_weights, quantized_linear_gpu, symmetric_scale,
};
use gpu_context::GpuContext;

/// A SplitMix64 stream of bytes in `lo..=hi`.
fn ints(n: usize, seed: u64, lo: i32, hi: i32) -> Vec<i8> {
    let mut s = seed;
    let span = (hi - lo + 1) as u64;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % span) as i32 + lo
        })
        .map(|v| v as i8)
        .collect()
}

/// -127..=127: the symmetric range.
fn bytes(n: usize, seed: u64) -> Vec<i8> {
    ints(n, seed, -127, 127)
}

fn floats(n: usize, seed: u64) -> Vec<f32> {
    bytes(n, seed)
        .into_iter()
        .map(|b| f32::from(b) / 37.0)
        .collect()
}

/// Lopsided activations, like a layer's after a ReLU with a little negative leak: -0.4..3.4.
fn activations(n: usize, seed: u64) -> Vec<f32> {
    bytes(n, seed)
        .into_iter()
        .map(|b| (f32::from(b) + 127.0) / 254.0 * 3.8 - 0.4)
        .collect()
}

/// k×n weights whose columns differ in size: column j is scaled by 2^-(j mod 5).
fn weights(k: usize, n: usize, seed: u64) -> Vec<f32> {
    floats(k * n, seed)
        .into_iter()
        .enumerate()
        .map(|(at, v)| v / (1 << ((at % n) % 5)) as f32)
        .collect()
}

/// The reference symmetric quantization of a column: (scale, values).
fn ref_symmetric(column: &[f32]) -> (f32, Vec<i8>) {
    let hi = column.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let scale = if hi > 0.0 { hi / 127.0 } else { 1.0 };
    let q = column
        .iter()
        .map(|v| (v / scale).round_ties_even().clamp(-127.0, 127.0) as i8)
        .collect();
    (scale, q)
}

fn ref_weights(w: &[f32], k: usize, n: usize) -> QuantizedWeights {
    let mut values = vec![0i8; k * n];
    let (mut scales, mut column_sums) = (Vec::new(), Vec::new());
    for j in 0..n {
        let column: Vec<f32> = (0..k).map(|p| w[p * n + j]).collect();
        let (scale, q) = ref_symmetric(&column);
        for (p, &v) in q.iter().enumerate() {
            values[p * n + j] = v;
        }
        scales.push(scale);
        column_sums.push(q.iter().map(|&v| i32::from(v)).sum());
    }
    QuantizedWeights {
        k,
        n,
        values,
        scales,
        column_sums,
    }
}

fn ref_params(x: &[f32]) -> Asymmetric {
    let min = x.iter().copied().fold(0.0f32, f32::min);
    let max = x.iter().copied().fold(0.0f32, f32::max);
    let scale = if max > min { (max - min) / 255.0 } else { 1.0 };
    let zero = (-128.0 - (min / scale).round_ties_even()).clamp(-128.0, 127.0);
    Asymmetric {
        scale,
        zero_point: zero as i8,
    }
}

fn ref_quantize_asymmetric(x: &[f32], p: Asymmetric) -> Vec<i8> {
    x.iter()
        .map(|v| {
            ((v / p.scale).round_ties_even() + f32::from(p.zero_point)).clamp(-128.0, 127.0) as i8
        })
        .collect()
}

/// The exact layer from integer operands: products and the correction in i64, one f32 rounding
/// of the centred sum, then the two scales and the bias.
fn ref_layer(
    qx: &[i8],
    m: usize,
    x: Asymmetric,
    w: &QuantizedWeights,
    bias: &[f32],
) -> Vec<(f32, f32)> {
    let (k, n) = (w.k, w.n);
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        for (j, &b) in bias.iter().enumerate().take(n) {
            let centred: i64 = (0..k)
                .map(|p| {
                    (i64::from(qx[i * k + p]) - i64::from(x.zero_point))
                        * i64::from(w.values[p * n + j])
                })
                .sum();
            let scaled = x.scale * w.scales[j] * centred as f32;
            // (value, the size of its terms: what a fused multiply-add or another order of the
            // two scalings may change in the last bits)
            out.push((scaled + b, scaled.abs() + b.abs()));
        }
    }
    out
}

fn assert_close(got: &[f32], want: &[(f32, f32)], rtol: f32, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: wrong number of outputs");
    for (at, (g, (w, size))) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= rtol * size + 1e-30,
            "{what}: output {at} is {g}, want {w}"
        );
    }
}

/// At most 64 evenly spaced elements, for the grader's records.
fn sample(v: &[f32]) -> (usize, Vec<f32>) {
    let step = v.len().div_ceil(64).max(1);
    (v.len(), v.iter().step_by(step).copied().collect())
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
        // Activations use the full range, -128 included.
        let (a, b) = (ints(m * k, 1, -128, 127), bytes(k * n, 2));
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
    assert_eq!(gemm_i8(&[], &[], 2, 0, 3).unwrap(), vec![0; 6]);
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
    // An odd product, so that a sum kept in f32 (exact only up to 2^24) cannot round its way
    // back to the right integer.
    let got = gemm_i8(&vec![-128; k + 1], &vec![127; k + 1], 1, k + 1, 1).unwrap();
    grade_record!("extreme", &got, 0.0);
    assert_eq!(got, vec![-128 * 127 * 4001]);
    let got = gemm_i8(&vec![-127; k + 1], &vec![-127; k + 1], 1, k + 1, 1).unwrap();
    grade_record!("extreme", &got, 0.0);
    assert_eq!(got, vec![127 * 127 * 4001]);
    grade_ok!("quantize_linear_hidden_gemm_extremes_do_not_overflow");
}

#[test]
fn quantize_linear_hidden_shape_errors() {
    let wrong = |name, rows, cols, got| {
        Err::<(), _>(ShapeError::WrongLength {
            name,
            rows,
            cols,
            got,
        })
    };
    let gemm = (
        gemm_i8(&[1; 5], &[1; 6], 2, 3, 2).map(drop),
        gemm_i8(&[1; 6], &[1; 5], 2, 3, 2).map(drop),
    );
    let weights = quantize_weights(&[1.0; 5], 2, 3).map(drop);
    let w = ref_weights(&[1.0; 6], 2, 3);
    let x = Asymmetric {
        scale: 1.0,
        zero_point: 0,
    };
    let mut short_scales = w.clone();
    short_scales.scales.pop();
    let mut short_sums = w.clone();
    short_sums.column_sums.pop();
    let epilogue = (
        dequantize_accumulators(&[0; 5], 2, 3, x, &w, &[0.0; 3]).map(drop),
        dequantize_accumulators(&[0; 6], 2, 3, x, &short_scales, &[0.0; 3]).map(drop),
        dequantize_accumulators(&[0; 6], 2, 3, x, &short_sums, &[0.0; 3]).map(drop),
        dequantize_accumulators(&[0; 6], 2, 3, x, &w, &[0.0; 4]).map(drop),
        // Both wrong: the first check named in the documentation wins.
        dequantize_accumulators(&[0; 7], 2, 3, x, &w, &[0.0; 4]).map(drop),
    );
    let layer = (
        linear_int8(&[0.0; 6], &[0.0; 5], &[0.0; 2], (2, 3, 2)).map(drop),
        linear_int8(&[0.0; 6], &[0.0; 6], &[0.0; 3], (2, 3, 2)).map(drop),
        linear_int8(&[], &[], &[], (0, MAX_DEPTH + 1, 0)).map(drop),
    );
    grade_record!("errors", (&gemm, &weights, &epilogue, &layer), 0.0);
    assert_eq!(gemm.0, wrong("a", 2, 3, 5));
    assert_eq!(gemm.1, wrong("b", 3, 2, 5));
    assert_eq!(weights, wrong("w", 2, 3, 5));
    assert_eq!(epilogue.0, wrong("acc", 2, 3, 5));
    assert_eq!(epilogue.1, wrong("weights.scales", 1, 3, 2));
    assert_eq!(epilogue.2, wrong("weights.column_sums", 1, 3, 2));
    assert_eq!(epilogue.3, wrong("bias", 1, 3, 4));
    assert_eq!(epilogue.4, wrong("acc", 2, 3, 7));
    assert_eq!(layer.0, wrong("w", 3, 2, 5));
    assert_eq!(layer.1, wrong("bias", 1, 2, 3));
    assert_eq!(
        layer.2,
        Err(ShapeError::TooDeep {
            k: MAX_DEPTH + 1,
            max: MAX_DEPTH
        })
    );
    grade_ok!("quantize_linear_hidden_shape_errors");
}

#[test]
fn quantize_linear_hidden_per_channel_scales() {
    // Columns: large, tiny, all zero, negative only, and one with a scale of exactly 1 and
    // two ties (62.5 and -2.5 round to 62 and -2).
    #[rustfmt::skip]
    let w = [
        2.54, 0.001, 0.0, -4.0, 127.0,
        -1.0, -0.003, 0.0, -1.0, 62.5,
        0.5, 0.00254, -0.0, -2.0, -2.5,
    ];
    let got = quantize_weights(&w, 3, 5).unwrap();
    grade_record!(
        "per_channel",
        (&got.values, &got.scales, &got.column_sums),
        1e-6
    );
    let want = ref_weights(&w, 3, 5);
    assert_eq!((got.k, got.n), (3, 5));
    assert_eq!(got.scales.len(), 5, "one scale per column");
    for (j, (g, s)) in got.scales.iter().zip(&want.scales).enumerate() {
        assert!((g - s).abs() <= 1e-6 * s, "column {j}: scale {g}, want {s}");
    }
    assert_eq!(got.values, want.values);
    assert_eq!(
        (got.values[4], got.values[9], got.values[14]),
        (127, 62, -2),
        "the reference's own ties"
    );
    assert_eq!(got.column_sums, want.column_sums);
    // The ragged shapes, k = 0 (no rows: every column has scale 1 and sum 0) and n = 1.
    for (k, n) in [(1, 1), (7, 3), (2, 9), (0, 3), (33, 1)] {
        let w = weights(k, n, 5 + k as u64);
        let got = quantize_weights(&w, k, n).unwrap();
        grade_record!(
            "per_channel",
            (&got.values, &got.scales, &got.column_sums),
            1e-6
        );
        let want = ref_weights(&w, k, n);
        assert_eq!(got.values, want.values, "{k}×{n}");
        assert_eq!(got.column_sums, want.column_sums, "{k}×{n}");
        for (g, s) in got.scales.iter().zip(&want.scales) {
            assert!((g - s).abs() <= 1e-6 * s, "{k}×{n}: scale {g}, want {s}");
        }
    }
    grade_ok!("quantize_linear_hidden_per_channel_scales");
}

#[test]
fn quantize_linear_hidden_zero_point_rounds_and_clamps() {
    // [min, max] 255 apart: scale 1.0, and the zero point is -128 - round(min).
    let cases: [(&[f32], i8); 9] = [
        (&[-0.5, 254.5], -128),   // round(-0.5) = -0 with ties to even
        (&[-2.5, 252.5], -126),   // ties to even: -2, not -3
        (&[-1.3, 253.7], -127),   // rounds, not truncates
        (&[-0.7, 254.3], -127),   // rounds up in magnitude
        (&[2.0, 3.0, 5.1], -128), // all positive: the range still starts at 0
        (&[-5.1, -1.0], 127),     // all negative: it still ends at 0
        (&[0.0, -0.0], -128),     // nothing to spread: scale 1, 0 at the bottom
        (&[], -128),
        (&[-3.0, 1.0], 63), // 3/4 of the levels below zero: -128 + 191.25, rounded
    ];
    let mut params = Vec::new();
    for (x, zero) in cases {
        let got = asymmetric_params(x);
        let want = ref_params(x);
        params.push(got);
        assert_eq!(want.zero_point, zero, "the test's own reference for {x:?}");
        assert_eq!(got.zero_point, zero, "zero point of {x:?}");
        assert!(
            (got.scale - want.scale).abs() <= 1e-6 * want.scale,
            "scale of {x:?}: {}, want {}",
            got.scale,
            want.scale
        );
    }
    // Quantizing: round, then shift, then saturate to the whole int8 range, -128 included.
    let p = Asymmetric {
        scale: 1.0,
        zero_point: 3,
    };
    let x = [
        2.5,
        3.5,
        -0.5,
        -131.0,
        -131.6,
        124.4,
        300.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    let q = quantize_asymmetric(&x, p);
    grade_record!("asymmetric", (&params, &q), 1e-6);
    assert_eq!(q, vec![5, 7, 3, -128, -128, 127, 127, 127, -128]);
    // And a whole tensor through its own map: the extremes land on -128 and 127.
    let x = activations(101, 9);
    let p = asymmetric_params(&x);
    let q = quantize_asymmetric(&x, p);
    assert_eq!(q, ref_quantize_asymmetric(&x, ref_params(&x)));
    assert_eq!(
        q.iter().min(),
        Some(&-128),
        "the smallest input maps to -128"
    );
    grade_ok!("quantize_linear_hidden_zero_point_rounds_and_clamps");
}

#[test]
fn quantize_linear_hidden_epilogue_corrects_the_zero_point() {
    // Known operands: 2×3 outputs from given sums.
    let w = QuantizedWeights {
        k: 4,
        n: 3,
        values: vec![0; 12],
        scales: vec![0.5, 0.25, 2.0],
        column_sums: vec![10, -7, 0],
    };
    let x = Asymmetric {
        scale: 0.1,
        zero_point: -20,
    };
    let acc = [100, -3, 40, -200, 0, 7];
    let bias = [1.0, -1.0, 0.5];
    let got = dequantize_accumulators(&acc, 2, 3, x, &w, &bias).unwrap();
    grade_record!("epilogue", &got, 1e-6);
    // acc − zx·sum: 300, −143, 40 and 0, −140, 7.
    let centred = [300.0f32, -143.0, 40.0, 0.0, -140.0, 7.0];
    let want: Vec<(f32, f32)> = centred
        .iter()
        .enumerate()
        .map(|(at, c)| {
            let s = x.scale * w.scales[at % 3] * c;
            (s + bias[at % 3], s.abs() + bias[at % 3].abs())
        })
        .collect();
    assert_close(&got, &want, 1e-6, "known sums");

    // Cancellation: an input that sits at its zero point almost everywhere gives sums near
    // zx · column sum, about 6.5e7. The difference is small, and only exact in integers: an
    // f32 holds 6.5e7 to the nearest 4.
    let w = QuantizedWeights {
        k: 4000,
        n: 2,
        values: vec![127; 8000],
        scales: vec![0.01, 0.02],
        column_sums: vec![508_000, 508_001],
    };
    let x = Asymmetric {
        scale: 0.5,
        zero_point: -128,
    };
    let acc = [-65_023_963, -65_024_097];
    let got = dequantize_accumulators(&acc, 1, 2, x, &w, &[0.0, 0.0]).unwrap();
    grade_record!("epilogue", &got, 1e-6);
    let want = [(0.5 * 0.01 * 37.0, 0.185), (0.5 * 0.02 * 31.0, 0.31)];
    assert_close(&got, &want, 1e-5, "sums that cancel");

    // Nothing to compute: no rows, or no columns.
    let w0 = QuantizedWeights {
        k: 3,
        n: 0,
        values: vec![],
        scales: vec![],
        column_sums: vec![],
    };
    assert_eq!(
        dequantize_accumulators(&[], 5, 0, x, &w0, &[]).unwrap(),
        Vec::<f32>::new()
    );
    grade_ok!("quantize_linear_hidden_epilogue_corrects_the_zero_point");
}

#[test]
fn quantize_linear_hidden_linear_is_close_to_f32() {
    for (m, k, n, seed) in [(7, 45, 11, 3), (1, 1, 1, 7), (5, 130, 6, 11)] {
        let (x, w) = (activations(m * k, seed), weights(k, n, seed + 1));
        let bias: Vec<f32> = floats(n, seed + 2);
        let got = linear_int8(&x, &w, &bias, (m, k, n)).unwrap();
        grade_record!("linear", &got, 1e-5);
        // The scheme exactly: the same integers and one rounding at the end.
        let p = ref_params(&x);
        let qw = ref_weights(&w, k, n);
        let exact = ref_layer(&ref_quantize_asymmetric(&x, p), m, p, &qw, &bias);
        assert_close(&got, &exact, 1e-5, "the int8 layer");
        // And within the quantization error of the f32 layer: each factor is off by at most
        // half its own step (the activations' step, or the weight column's).
        for i in 0..m {
            for j in 0..n {
                let f32_layer: f32 =
                    (0..k).map(|p| x[i * k + p] * w[p * n + j]).sum::<f32>() + bias[j];
                let (sx, sw) = (p.scale, qw.scales[j]);
                let bound: f32 = (0..k)
                    .map(|p| {
                        x[i * k + p].abs() * sw / 2.0 + (w[p * n + j].abs() + sw / 2.0) * sx / 2.0
                    })
                    .sum::<f32>()
                    + 1e-4;
                let err = (got[i * n + j] - f32_layer).abs();
                assert!(
                    err <= bound,
                    "({i}, {j}) of {m}×{k}×{n}: off by {err} > {bound}"
                );
            }
        }
    }
    grade_ok!("quantize_linear_hidden_linear_is_close_to_f32");
}

/// Operands for the kernel, built here: activations over the whole int8 range, a zero point,
/// and a different scale for every column.
fn gpu_operands(
    m: usize,
    k: usize,
    n: usize,
    zero_point: i8,
    seed: u64,
) -> (Vec<i8>, Asymmetric, QuantizedWeights, Vec<f32>) {
    let qx = ints(m * k, seed, -128, 127);
    let values = bytes(k * n, seed + 1);
    let column_sums = (0..n)
        .map(|j| (0..k).map(|p| i32::from(values[p * n + j])).sum())
        .collect();
    let w = QuantizedWeights {
        k,
        n,
        values,
        scales: (0..n)
            .map(|j| 0.003 + 0.0011 * (j % 13) as f32 + 0.0003 * (j / 13) as f32)
            .collect(),
        column_sums,
    };
    let x = Asymmetric {
        scale: 0.0173,
        zero_point,
    };
    let bias = floats(n, seed + 2);
    (qx, x, w, bias)
}

#[test]
fn quantize_linear_hidden_gpu_matches_the_reference_on_odd_shapes() {
    let ctx = GpuContext::for_tests();
    let shapes = [
        (1, 1, 1, 0),
        (3, 5, 7, -128),
        (17, 9, 18, 127),
        (2, 33, 31, 5),
        (20, 4, 17, -37),
        (16, 16, 16, 64),
        (2, 0, 3, 9), // k = 0: only the bias is left
    ];
    for (seed, &(m, k, n, zero)) in shapes.iter().enumerate() {
        let (qx, x, w, bias) = gpu_operands(m, k, n, zero, 100 + 3 * seed as u64);
        let got = quantized_linear_gpu(&ctx, &qx, m, x, &w, &bias).unwrap();
        grade_record!("gpu", sample(&got), 1e-5);
        let want = ref_layer(&qx, m, x, &w, &bias);
        assert_close(
            &got,
            &want,
            1e-5,
            &format!("{m}×{k}×{n}, zero point {zero}"),
        );
    }
    grade_ok!("quantize_linear_hidden_gpu_matches_the_reference_on_odd_shapes");
}

#[test]
fn quantize_linear_hidden_gpu_long_k_and_cancellation() {
    let ctx = GpuContext::for_tests();
    // k = 4001: not a whole number of words. Every input sits at its zero point but one per
    // row, and the weights are large and positive: the i32 sums reach about -5.8e7, and what
    // is left after the correction is a few ten thousands, exact only in integers. (A zero
    // point of -127, not -128: products that are all multiples of 128 would sum exactly even
    // in f32.)
    let (m, k, n) = (3, 4001, 5);
    let zero = -127i8;
    let mut qx = vec![zero; m * k];
    for i in 0..m {
        qx[i * k + 17 * i + 3] = 100 - 40 * i as i8;
    }
    let values = ints(k * n, 31, 100, 127);
    let column_sums = (0..n)
        .map(|j| (0..k).map(|p| i32::from(values[p * n + j])).sum())
        .collect();
    let w = QuantizedWeights {
        k,
        n,
        values,
        scales: vec![0.01, 0.02, 0.005, 0.03, 0.001],
        column_sums,
    };
    let x = Asymmetric {
        scale: 0.05,
        zero_point: zero,
    };
    let bias = [0.0, 0.25, -0.5, 0.0, 1.0];
    let got = quantized_linear_gpu(&ctx, &qx, m, x, &w, &bias).unwrap();
    grade_record!("gpu_long", &got, 1e-5);
    assert_close(&got, &ref_layer(&qx, m, x, &w, &bias), 1e-5, "long k");
    // The largest sums: -128 against 127, and 127 against -127, with no zero point, over
    // k = 8001, past 2^26 (where an f32 is a multiple of 8).
    let k = 8001;
    for (a, b) in [(-128i8, 127i8), (127, -127)] {
        let w = QuantizedWeights {
            k,
            n: 1,
            values: vec![b; k],
            scales: vec![1.0],
            column_sums: vec![i32::from(b) * k as i32],
        };
        let x = Asymmetric {
            scale: 1.0,
            zero_point: 0,
        };
        let got = quantized_linear_gpu(&ctx, &vec![a; k], 1, x, &w, &[0.0]).unwrap();
        grade_record!("gpu_long", &got, 1e-7);
        assert_eq!(got, vec![(i32::from(a) * i32::from(b) * k as i32) as f32]);
    }
    grade_ok!("quantize_linear_hidden_gpu_long_k_and_cancellation");
}

#[test]
fn quantize_linear_hidden_gpu_matches_the_cpu_layer() {
    let ctx = GpuContext::for_tests();
    for (m, k, n, seed) in [(9, 70, 19, 41), (1, 3, 33, 43)] {
        let (x, w) = (activations(m * k, seed), weights(k, n, seed + 1));
        let bias = floats(n, seed + 2);
        let gpu = linear_int8_gpu(&ctx, &x, &w, &bias, (m, k, n)).unwrap();
        grade_record!("gpu_layer", sample(&gpu), 1e-5);
        let cpu = linear_int8(&x, &w, &bias, (m, k, n)).unwrap();
        // The size of each output's terms: the scaled sum and the bias.
        let want: Vec<(f32, f32)> = cpu
            .iter()
            .enumerate()
            .map(|(at, &c)| (c, (c - bias[at % n]).abs() + bias[at % n].abs()))
            .collect();
        assert_close(&gpu, &want, 1e-5, "GPU against CPU");
    }
    grade_ok!("quantize_linear_hidden_gpu_matches_the_cpu_layer");
}
