//! Public tests: `cargo nextest run -p ex_m0_gpu_vector_op` (they need a GPU adapter; lavapipe is
//! enough).

use ex_m0_gpu_vector_op::{saxpy, workgroups};
use gpu_context::GpuContext;

#[test]
fn gpu_vector_op_public_small_vectors() {
    let ctx = GpuContext::for_tests();
    let y = saxpy(&ctx, 2.0, &[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]).unwrap();
    assert_eq!(y, [12.0, 24.0, 36.0]);
}

#[test]
fn gpu_vector_op_public_matches_the_cpu_on_1000_elements() {
    let ctx = GpuContext::for_tests();
    // 1000 is not a multiple of 64: the last workgroup has 24 invocations past the end.
    let x: Vec<f32> = (0..1000).map(|i| (i % 17) as f32 - 8.0).collect();
    let y: Vec<f32> = (0..1000).map(|i| (i % 5) as f32 * 0.5).collect();
    let got = saxpy(&ctx, -1.5, &x, &y).unwrap();
    assert_eq!(got.len(), 1000);
    for (i, g) in got.iter().enumerate() {
        let want = -1.5 * x[i] + y[i];
        assert!((g - want).abs() <= 1e-5, "element {i}: GPU {g}, CPU {want}");
    }
}

#[test]
fn gpu_vector_op_public_workgroups_for_one_row() {
    assert_eq!(workgroups(1, 65_535), [1, 1, 1]);
    assert_eq!(workgroups(1000, 65_535), [16, 1, 1]);
    assert_eq!(workgroups(1024, 65_535), [16, 1, 1]);
}
