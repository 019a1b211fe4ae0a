//! The WGSL dot product on a real adapter (lavapipe in CI), against its CPU emulation.

use half::f16;
use numerics::gpu_dot::{Accumulator, LANES, emulate, gpu_dot, open_f16_context};

#[test]
fn gpu_dot_matches_the_emulation_and_shows_the_f16_stall() {
    let ctx = match open_f16_context() {
        Ok(ctx) => ctx,
        Err(e) => panic!("this GPU test needs an adapter with SHADER_F16: {e}"),
    };
    // Exact products (1 × 0.25), so a fused multiply-add on the GPU cannot change the result.
    let n = LANES * 4096;
    let (a, b) = (vec![f16::ONE; n], vec![f16::from_f32(0.25); n]);
    for acc in [Accumulator::F32, Accumulator::F16] {
        let gpu = gpu_dot(&ctx, &a, &b, acc).unwrap();
        assert_eq!(gpu, emulate(&a, &b, acc).unwrap(), "{acc:?}");
    }
    assert_eq!(gpu_dot(&ctx, &a, &b, Accumulator::F16).unwrap(), 32_768.0);

    // An odd length, general values: the f32 accumulator's products are exact in f32, so the
    // GPU and the emulation agree to the bit.
    let a: Vec<f16> = (0..1001)
        .map(|i| f16::from_f32((i % 13) as f32 * 0.1 - 0.6))
        .collect();
    let b: Vec<f16> = (0..1001)
        .map(|i| f16::from_f32((i % 7) as f32 * 0.3))
        .collect();
    let gpu = gpu_dot(&ctx, &a, &b, Accumulator::F32).unwrap();
    assert_eq!(gpu, emulate(&a, &b, Accumulator::F32).unwrap());
}
