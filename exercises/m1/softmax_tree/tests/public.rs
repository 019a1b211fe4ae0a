//! Public tests: `cargo nextest run -p ex_m1_softmax_tree` (they need a GPU adapter; lavapipe
//! is enough).

use ex_m1_softmax_tree::{TREE_WGSL, softmax_cpu, softmax_single_pass, softmax_tree};
use gpu_context::GpuContext;

fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((s >> 8) as f32 / (1u32 << 23) as f32 - 1.0) * 4.0
        })
        .collect()
}

fn close(got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, e)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - e).abs() <= 1e-5 + 1e-4 * e.abs(),
            "y[{i}] = {g}, expected {e}"
        );
    }
}

#[test]
fn softmax_tree_public_small_matrix() {
    let ctx = GpuContext::for_tests();
    let x = values(4 * 10, 1);
    close(
        &softmax_tree(&ctx, &x, 4, 10).unwrap(),
        &softmax_cpu(&x, 4, 10),
    );
}

#[test]
fn softmax_tree_public_matches_single_pass() {
    let ctx = GpuContext::for_tests();
    let x = values(2 * 300, 2);
    let single = softmax_single_pass(&ctx, &x, 2, 300).unwrap();
    close(&single, &softmax_cpu(&x, 2, 300));
    close(&softmax_tree(&ctx, &x, 2, 300).unwrap(), &single);
}

#[test]
fn softmax_tree_public_kernel_uses_workgroup_memory() {
    assert!(
        TREE_WGSL.contains("var<workgroup>"),
        "reduce in a var<workgroup> array"
    );
    assert!(
        TREE_WGSL.contains("workgroupBarrier"),
        "synchronise between tree levels"
    );
}
