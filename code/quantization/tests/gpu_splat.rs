//! The WGSL depth test (one `atomicMin` per point) gives the CPU's image bit for bit, on
//! lavapipe in CI.

use computational_graphs::rng::SplitMix64;
use gpu_context::GpuContext;
use quantization::specialisations::atomic_depth::{EMPTY32, PackError, Packing32};
use quantization::specialisations::gpu_splat::gpu_splat32;
use quantization::specialisations::splat::{ScreenPoint, splat32};

/// Points over and around a `width`×`height` image (some off screen), with depths from 0 to 11 m
/// (some beyond the far plane), many per pixel, and a run of exactly equal depths.
fn points(n: usize, width: u32, height: u32, seed: u64) -> Vec<ScreenPoint> {
    let mut rng = SplitMix64::new(seed);
    let mut pts: Vec<ScreenPoint> = (0..n)
        .map(|_| ScreenPoint {
            x: rng.next_f32() * (width + 2) as f32 - 1.0,
            y: rng.next_f32() * (height + 2) as f32 - 1.0,
            depth: rng.next_f32() * 11.0,
        })
        .collect();
    for p in pts.iter_mut().step_by(7) {
        p.depth = 0.25; // ties: the lowest id in each pixel must win on both sides
    }
    pts
}

#[test]
fn gpu_atomic_min_image_equals_the_cpu_one() {
    let ctx = GpuContext::for_tests();
    for (depth_bits, n, (w, h)) in [
        (16, 60_000, (37, 23)),
        (24, 256, (5, 3)),
        (12, 3_000, (64, 1)),
    ] {
        let packing = Packing32::new(depth_bits, 0.1, 10.0).unwrap();
        let pts = points(n, w, h, u64::from(depth_bits));
        let cpu = splat32(&pts, w, h, 2, &packing).unwrap();
        let gpu = gpu_splat32(&ctx, &pts, w, h, &packing).unwrap();
        assert_eq!(gpu, cpu, "{depth_bits}-bit depth, {n} points into {w}×{h}");
        let filled = cpu.iter().filter(|&&v| v != EMPTY32).count();
        assert!(
            filled > (w * h) as usize / 2,
            "the test reaches most pixels"
        );
    }
}

#[test]
fn gpu_splat_refuses_what_the_ids_cannot_name() {
    let ctx = GpuContext::for_tests();
    let packing = Packing32::new(24, 0.1, 10.0).unwrap();
    let pts = points(257, 4, 4, 1);
    let err = gpu_splat32(&ctx, &pts, 4, 4, &packing).unwrap_err();
    assert!(
        matches!(err, PackError::IdTooLarge { id: 256, .. }),
        "{err}"
    );
    assert_eq!(
        gpu_splat32(&ctx, &[], 2, 2, &packing).unwrap(),
        vec![EMPTY32; 4]
    );
}
