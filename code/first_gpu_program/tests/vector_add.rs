use first_gpu_program::{VectorAddError, add_vectors};
use gpu_context::GpuContext;

// ANCHOR: test
#[test]
fn gpu_vector_add_matches_the_cpu() {
    let ctx = GpuContext::for_tests();
    // 1000 is not a multiple of the workgroup size (64): the bounds check in the shader matters.
    let a: Vec<f32> = (0..1000).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..1000).map(|i| 1000.0 - i as f32).collect();
    let expected: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(add_vectors(&ctx, &a, &b).unwrap(), expected);
}
// ANCHOR_END: test

#[test]
fn gpu_vector_add_rejects_different_lengths() {
    let ctx = GpuContext::for_tests();
    let err = add_vectors(&ctx, &[1.0, 2.0], &[1.0]).unwrap_err();
    assert!(matches!(err, VectorAddError::LengthMismatch { a: 2, b: 1 }));
    assert!(err.to_string().contains("same length"), "{err}");
}

#[test]
fn gpu_vector_add_of_empty_vectors_is_empty() {
    let ctx = GpuContext::for_tests();
    assert!(add_vectors(&ctx, &[], &[]).unwrap().is_empty());
}
