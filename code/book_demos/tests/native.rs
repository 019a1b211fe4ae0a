//! The demo's GPU code, run natively (lavapipe in CI) under `pollster::block_on`.

use book_demos::{DemoError, VectorAdd, reference};
use gpu_context::GpuContext;

#[test]
fn the_demo_runs_the_first_gpu_programs_kernel() {
    assert_eq!(book_demos::vector_add::SHADER, first_gpu_program::SHADER);
}

#[test]
fn vector_add_matches_the_cpu_reference_and_the_native_program() {
    let ctx = GpuContext::for_tests();
    let (a, b) = reference::vector_add_inputs(10_000);
    let demo = VectorAdd::new(&ctx.device);
    let gpu = pollster::block_on(demo.run(&ctx.device, &ctx.queue, &a, &b)).unwrap();
    let check = reference::check(&gpu, &reference::cpu_vector_add(&a, &b));
    assert!(check.passed(), "{check:?}");
    assert_eq!(gpu, first_gpu_program::add_vectors(&ctx, &a, &b).unwrap());
    // The pipeline is reused: a second run gives the same answer.
    let again = pollster::block_on(demo.run(&ctx.device, &ctx.queue, &a, &b)).unwrap();
    assert_eq!(gpu, again);
}

#[test]
fn bad_input_is_an_error_that_says_what_to_do() {
    let ctx = GpuContext::for_tests();
    let demo = VectorAdd::new(&ctx.device);
    let err = pollster::block_on(demo.run(&ctx.device, &ctx.queue, &[1.0], &[1.0, 2.0]));
    assert!(matches!(err, Err(DemoError::LengthMismatch { a: 1, b: 2 })));
    assert!(err.unwrap_err().to_string().contains("same length"));
    let empty = pollster::block_on(demo.run(&ctx.device, &ctx.queue, &[], &[])).unwrap();
    assert!(empty.is_empty());
}
