//! Public tests: `cargo nextest run -p ex_m3_quantize_linear` (the GPU test needs an adapter;
//! lavapipe is enough).

use ex_m3_quantize_linear::{
    Asymmetric, QuantizedWeights, asymmetric_params, dequantize, dequantize_accumulators, gemm_i8,
    linear_int8, linear_int8_gpu, quantize, quantize_asymmetric, quantize_weights,
    quantized_linear_gpu, symmetric_scale,
};
use gpu_context::GpuContext;

#[test]
fn quantize_linear_public_round_trip() {
    let x = [-2.54, 0.0, 1.27, 2.54];
    let s = symmetric_scale(&x);
    assert!((s - 0.02).abs() < 1e-7);
    let q = quantize(&x, s);
    assert_eq!(q, vec![-127, 0, 64, 127]);
    let back = dequantize(&q, s);
    assert!((back[2] - 1.28).abs() < 1e-6);
}

#[test]
fn quantize_linear_public_small_gemm() {
    let a = [1i8, 2, 3, 4]; // 2×2
    let b = [5i8, 6, 7, 8]; // 2×2
    assert_eq!(gemm_i8(&a, &b, 2, 2, 2).unwrap(), vec![19, 22, 43, 50]);
}

#[test]
fn quantize_linear_public_one_scale_per_column() {
    // 2×2: the first column spans ±2.54, the second only ±0.127.
    let w = [2.54, 0.127, -1.0, -0.05];
    let q = quantize_weights(&w, 2, 2).unwrap();
    assert!((q.scales[0] - 0.02).abs() < 1e-7);
    assert!((q.scales[1] - 0.001).abs() < 1e-9);
    // The small column keeps all its levels: per tensor it would round to 6 and -2.
    assert_eq!(q.values, vec![127, 127, -50, -50]);
    assert_eq!(q.column_sums, vec![77, 77]);
}

#[test]
fn quantize_linear_public_zero_point() {
    // [-1, 4.1]: 255 steps of 0.02, and 0.0 falls on level -128 + 50.
    let p = asymmetric_params(&[-1.0, 0.5, 4.1]);
    assert!((p.scale - 0.02).abs() < 1e-7);
    assert_eq!(p.zero_point, -78);
    assert_eq!(
        quantize_asymmetric(&[-1.0, 0.0, 4.1], p),
        vec![-128, -78, 127]
    );
}

#[test]
fn quantize_linear_public_epilogue_subtracts_the_zero_point() {
    // One output: x = 0.5 · (q − 3) with q = [5, 3], w = [0.25, 1.0], bias 1.
    let weights = quantize_weights(&[0.25, 1.0], 2, 1).unwrap();
    assert_eq!(weights.values, vec![32, 127]);
    let x = Asymmetric {
        scale: 0.5,
        zero_point: 3,
    };
    let acc = gemm_i8(&[5, 3], &weights.values, 1, 2, 1).unwrap();
    let y = dequantize_accumulators(&acc, 1, 1, x, &weights, &[1.0]).unwrap();
    // x = [1, 0], so y = 1 · 0.25 + 0 · 1.0 + 1, up to the weights' rounding.
    assert!((y[0] - 1.25).abs() < 0.01, "{}", y[0]);
}

#[test]
fn quantize_linear_public_gpu_matches_cpu() {
    let ctx = GpuContext::for_tests();
    let (m, k, n) = (3, 10, 5);
    let x: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 * 0.3 - 0.4).collect();
    let w: Vec<f32> = (0..k * n).map(|i| (i % 11) as f32 * 0.1 - 0.5).collect();
    let bias = [0.5, -0.5, 0.0, 1.0, 2.0];
    let cpu = linear_int8(&x, &w, &bias, (m, k, n)).unwrap();
    let gpu = linear_int8_gpu(&ctx, &x, &w, &bias, (m, k, n)).unwrap();
    assert_eq!(gpu.len(), m * n);
    for (i, (g, c)) in gpu.iter().zip(&cpu).enumerate() {
        assert!(
            (g - c).abs() <= 1e-5 * c.abs().max(1.0),
            "output {i}: GPU {g}, CPU {c}"
        );
    }
}

#[test]
fn quantize_linear_public_kernel_on_given_operands() {
    // The kernel alone, on operands built by hand (no CPU part needed): one row, k = 5 (two
    // packed words, the second padded), two columns.
    let ctx = GpuContext::for_tests();
    let qx = [1i8, 2, 3, 4, 5];
    let x = Asymmetric {
        scale: 0.5,
        zero_point: 1,
    };
    let w = QuantizedWeights {
        k: 5,
        n: 2,
        // Column 0 is all ones, column 1 is [2, 0, -1, 0, 1].
        values: vec![1, 2, 1, 0, 1, -1, 1, 0, 1, 1],
        scales: vec![1.0, 0.25],
        column_sums: vec![5, 2],
    };
    let y = quantized_linear_gpu(&ctx, &qx, 1, x, &w, &[0.5, -1.0]).unwrap();
    // Column 0: 0.5 · 1.0 · (15 − 1·5) + 0.5; column 1: 0.5 · 0.25 · (4 − 1·2) − 1.
    let want = [5.5, -0.75];
    assert_eq!(y.len(), 2);
    for (j, (g, w)) in y.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-6, "column {j}: GPU {g}, want {w}");
    }
}
