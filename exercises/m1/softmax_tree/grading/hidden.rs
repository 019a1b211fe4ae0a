//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m1_softmax_tree::{TREE_WGSL, softmax_cpu, softmax_tree};
use gpu_context::GpuContext;

fn values(len: usize, seed: u32, scale: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_246_822_519).wrapping_add(3);
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            ((s >> 8) as f32 / (1u32 << 23) as f32 - 1.0) * scale
        })
        .collect()
}

fn check(ctx: &GpuContext, rows: usize, cols: usize, scale: f32) {
    let x = values(rows * cols, (rows * 31 + cols) as u32, scale);
    let got = softmax_tree(ctx, &x, rows, cols).unwrap();
    let want = softmax_cpu(&x, rows, cols);
    assert_eq!(got.len(), want.len(), "{rows}×{cols}: length");
    for (i, (g, e)) in got.iter().zip(&want).enumerate() {
        assert!(g.is_finite(), "{rows}×{cols}: y[{i}] = {g}");
        assert!(
            (g - e).abs() <= 1e-5 + 1e-4 * e.abs(),
            "{rows}×{cols}: y[{i}] = {g}, expected {e}"
        );
    }
}

#[test]
fn softmax_tree_hidden_uses_workgroup_memory() {
    let code: String = TREE_WGSL
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    assert!(code.contains("var<workgroup>"));
    assert!(
        code.matches("workgroupBarrier").count() >= 2,
        "a barrier per tree level"
    );
    grade_ok!("softmax_tree_hidden_uses_workgroup_memory");
}

#[test]
fn softmax_tree_hidden_single_column() {
    let ctx = GpuContext::for_tests();
    let got = softmax_tree(&ctx, &[3.0, -7.0, 0.5], 3, 1).unwrap();
    assert_eq!(got, vec![1.0, 1.0, 1.0]);
    grade_ok!("softmax_tree_hidden_single_column");
}

#[test]
fn softmax_tree_hidden_rows_longer_than_the_workgroup() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 3, 1000, 3.0);
    grade_ok!("softmax_tree_hidden_rows_longer_than_the_workgroup");
}

#[test]
fn softmax_tree_hidden_odd_sizes() {
    let ctx = GpuContext::for_tests();
    for (rows, cols) in [(5, 63), (2, 65), (7, 129), (1, 7), (9, 2)] {
        check(&ctx, rows, cols, 2.0);
    }
    grade_ok!("softmax_tree_hidden_odd_sizes");
}

#[test]
fn softmax_tree_hidden_large_values_are_stable() {
    let ctx = GpuContext::for_tests();
    check(&ctx, 4, 100, 1000.0);
    grade_ok!("softmax_tree_hidden_large_values_are_stable");
}

#[test]
fn softmax_tree_hidden_more_rows_than_one_dispatch_dimension() {
    let ctx = GpuContext::for_tests();
    let rows = 65_535 + 7;
    let x: Vec<f32> = (0..rows * 2).map(|i| (i % 5) as f32).collect();
    let got = softmax_tree(&ctx, &x, rows, 2).unwrap();
    let want = softmax_cpu(&x, rows, 2);
    let worst = got
        .iter()
        .zip(&want)
        .map(|(g, e)| (g - e).abs())
        .fold(0.0f32, f32::max);
    assert!(worst <= 1e-5, "largest error {worst}");
    grade_ok!("softmax_tree_hidden_more_rows_than_one_dispatch_dimension");
}
