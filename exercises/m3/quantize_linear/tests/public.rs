//! Public tests: `cargo nextest run -p ex_m3_quantize_linear`.

use ex_m3_quantize_linear::{dequantize, gemm_i8, quantize, symmetric_scale};

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
