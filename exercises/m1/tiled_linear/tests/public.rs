//! Public tests: `cargo nextest run -p ex_m1_tiled_linear` (they need a GPU adapter; lavapipe
//! is enough).

use ex_m1_tiled_linear::{TILED_WGSL, linear_cpu, linear_tiled};
use gpu_context::GpuContext;

/// Small deterministic values in [-1, 1).
fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect()
}

fn check(ctx: &GpuContext, m: usize, k: usize, n: usize) {
    let (x, w, b) = (values(m * k, 1), values(k * n, 2), values(n, 3));
    let got = linear_tiled(ctx, &x, &w, &b, (m, k, n)).unwrap();
    let want = linear_cpu(&x, &w, &b, m, k, n);
    assert_eq!(got.len(), want.len());
    for (i, (g, e)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - e).abs() <= 1e-4 * (1.0 + e.abs()),
            "{m}×{k}×{n}: y[{i}] = {g}, expected {e}"
        );
    }
}

#[test]
fn tiled_linear_public_one_tile() {
    check(&GpuContext::for_tests(), 16, 16, 16);
}

#[test]
fn tiled_linear_public_ragged() {
    check(&GpuContext::for_tests(), 20, 7, 13);
}

#[test]
fn tiled_linear_public_kernel_uses_shared_memory() {
    assert!(
        TILED_WGSL.contains("var<workgroup>"),
        "stage the tiles in var<workgroup> arrays"
    );
    assert!(
        TILED_WGSL.contains("workgroupBarrier"),
        "synchronise the workgroup around each tile"
    );
}
