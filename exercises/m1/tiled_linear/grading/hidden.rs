//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m1_tiled_linear::{TILED_WGSL, linear_cpu, linear_naive, linear_tiled};
use gpu_context::GpuContext;

fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_246_822_519).wrapping_add(7);
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect()
}

fn close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, e)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - e).abs() <= 1e-4 * (1.0 + e.abs()),
            "{what}: y[{i}] = {g}, expected {e}"
        );
    }
}

fn check(ctx: &GpuContext, m: usize, k: usize, n: usize) {
    let (x, w, b) = (
        values(m * k, m as u32),
        values(k * n, k as u32 + 11),
        values(n, 5),
    );
    let got = linear_tiled(ctx, &x, &w, &b, (m, k, n)).unwrap();
    close(
        &got,
        &linear_cpu(&x, &w, &b, m, k, n),
        &format!("{m}×{k}×{n}"),
    );
}

#[test]
fn tiled_linear_hidden_uses_workgroup_memory() {
    let code: String = TILED_WGSL
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    assert!(
        code.matches("var<workgroup>").count() >= 2,
        "two tiles in workgroup memory"
    );
    assert!(code.contains("workgroupBarrier"));
    grade_ok!("tiled_linear_hidden_uses_workgroup_memory");
}

#[test]
fn tiled_linear_hidden_one_by_one() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 1, 1, 1);
    check(&ctx, 1, 3, 1);
    grade_ok!("tiled_linear_hidden_one_by_one");
}

#[test]
fn tiled_linear_hidden_exact_tiles() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 32, 16, 48);
    grade_ok!("tiled_linear_hidden_exact_tiles");
}

#[test]
fn tiled_linear_hidden_ragged_shapes() {
    let ctx = GpuContext::for_tests();
    for (m, k, n) in [(17, 33, 9), (3, 5, 70), (65, 2, 1), (33, 17, 31)] {
        check(&ctx, m, k, n);
    }
    grade_ok!("tiled_linear_hidden_ragged_shapes");
}

#[test]
fn tiled_linear_hidden_long_k() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 5, 300, 7);
    grade_ok!("tiled_linear_hidden_long_k");
}

#[test]
fn tiled_linear_hidden_matches_naive_kernel() {
    let ctx = GpuContext::for_tests();
    let (m, k, n) = (40, 24, 36);
    let (x, w, b) = (values(m * k, 3), values(k * n, 4), values(n, 6));
    let tiled = linear_tiled(&ctx, &x, &w, &b, (m, k, n)).unwrap();
    let naive = linear_naive(&ctx, &x, &w, &b, (m, k, n)).unwrap();
    close(&tiled, &naive, "tiled vs naive");
    grade_ok!("tiled_linear_hidden_matches_naive_kernel");
}
