//! The renderer on this machine's adapter (lavapipe in CI) against the CPU reference renderer:
//! the same nearest point in every pixel, ties to the lower id, for every variant.

use bench_harness::rng::SplitMix64;
use gpu_context::{GpuContext, GpuScopes};
use point_cloud_renderer::reference::{self, covered_pixels, project_all};
use point_cloud_renderer::renderer::{FAR, NEAR};
use point_cloud_renderer::{
    Camera, CountedSplat, Frame, PointCloud, RenderError, Renderer, Variant, packing_for,
};
use quantization::specialisations::atomic_depth::{PackError, Packing32};

fn open() -> (GpuContext, GpuScopes) {
    let ctx = GpuScopes::open_context().expect("an adapter with timestamp queries");
    let scopes = GpuScopes::new(&ctx).unwrap();
    (ctx, scopes)
}

const SIZE: (u32, u32) = (64, 48);

/// A camera at the origin looking down +z, 16 pixels per unit of x/z: with the scene below,
/// every product, quotient and sum of the projection is exact in f32, so the GPU and the CPU
/// agree whatever order or fused multiply-adds either side uses.
fn exact_camera() -> Camera {
    Camera {
        eye: [0.0; 3],
        right: [1.0, 0.0, 0.0],
        up: [0.0, 1.0, 0.0],
        forward: [0.0, 0.0, 1.0],
        focal_px: 16.0,
        centre_px: [32.0, 24.0],
    }
}

/// Points on walls at depths 2, 4 and 8 m (powers of two) at x and y that are multiples of
/// 1/16, some repeated with a later id (a tie), some behind the camera or beyond the far plane.
fn exact_scene() -> PointCloud {
    let mut rng = SplitMix64::new(5);
    let mut positions = Vec::new();
    for i in 0..6_000 {
        let z: f32 = [2.0, 4.0, 8.0, -2.0, 64.0][if i % 50 == 0 { 3 + i / 50 % 2 } else { i % 3 }];
        let mut grid = |half_extent: f32| (rng.symmetric(half_extent) * 16.0).round() / 16.0;
        let p = [grid(2.0 * z.abs()), grid(1.5 * z.abs()), z];
        positions.push(p);
        if i % 7 == 0 {
            positions.push(p); // the same point again: the first id must win
        }
    }
    let colours = (0..positions.len() as u32)
        .map(|i| 0xFF00_0000 | i.wrapping_mul(2_654_435_761) >> 8)
        .collect();
    PointCloud { positions, colours }
}

fn render(ctx: &GpuContext, scopes: &mut GpuScopes, r: &Renderer, v: Variant) -> Frame {
    r.render(ctx, scopes, v).unwrap();
    r.read_frame(ctx).unwrap()
}

#[test]
fn every_variant_equals_the_cpu_reference_exactly() {
    let (ctx, mut scopes) = open();
    let cloud = exact_scene();
    let camera = exact_camera();
    for cloud in [cloud.clone(), cloud.sorted_morton().unwrap()] {
        let packing = packing_for(cloud.len()).unwrap();
        let want = reference::render(&cloud, &camera, SIZE, &packing).unwrap();
        let covered = covered_pixels(&want);
        assert!(
            covered > 1_000 && covered < 64 * 48,
            "the scene covers {covered} pixels"
        );
        let renderer = Renderer::new(&ctx, &cloud, &camera, SIZE, packing).unwrap();
        for variant in Variant::ALL {
            let got = render(&ctx, &mut scopes, &renderer, variant);
            let wrong = got
                .packed
                .iter()
                .zip(&want.packed)
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(wrong, 0, "{variant:?}: {wrong} pixels differ");
            assert_eq!(got, want, "{variant:?}");
        }
    }
}

#[test]
fn the_counting_splat_counts_its_atomics_and_draws_the_same_image() {
    let ctx = GpuContext::for_tests();
    let cloud = exact_scene();
    let camera = exact_camera();
    let packing = packing_for(cloud.len()).unwrap();
    let want = reference::render(&cloud, &camera, SIZE, &packing).unwrap();
    let (w, h) = (SIZE.0 as f32, SIZE.1 as f32);
    let visible = project_all(&cloud, &camera)
        .iter()
        .filter(|p| p.x >= 0.0 && p.x < w && p.y >= 0.0 && p.y < h)
        .filter(|p| p.depth >= NEAR && p.depth < FAR)
        .count() as u32;
    let covered = covered_pixels(&want) as u32;
    assert!(visible > covered, "{visible} points on {covered} pixels");
    let renderer = Renderer::new(&ctx, &cloud, &camera, SIZE, packing).unwrap();
    let naive = renderer.count_atomics(&ctx, CountedSplat::Naive).unwrap();
    assert_eq!(renderer.read_frame(&ctx).unwrap().packed, want.packed);
    assert_eq!(
        (naive.tested, naive.issued),
        (visible, visible),
        "{naive:?}"
    );
    // The first point into an empty pixel always lowers it: at least one win per pixel.
    assert!(
        covered <= naive.won && naive.won <= naive.issued,
        "{naive:?}"
    );
    let early = renderer
        .count_atomics(&ctx, CountedSplat::EarlyReject)
        .unwrap();
    assert_eq!(renderer.read_frame(&ctx).unwrap().packed, want.packed);
    assert_eq!(early.tested, visible, "{early:?}");
    assert!(
        covered <= early.won && early.won <= early.issued && early.issued <= visible,
        "{early:?}"
    );
}

#[test]
fn a_tie_goes_to_the_lower_id() {
    let (ctx, mut scopes) = open();
    let p = [0.5, 0.25, 4.0];
    let cloud = PointCloud {
        positions: vec![[0.0, 0.0, 8.0], p, p, [0.5, 0.25, 6.0]],
        colours: vec![1, 2, 3, 4],
    };
    let camera = exact_camera();
    let packing = packing_for(cloud.len()).unwrap();
    let renderer = Renderer::new(&ctx, &cloud, &camera, SIZE, packing).unwrap();
    let pixel = |s: point_cloud_renderer::camera::Camera| {
        let q = s.project(p);
        q.y as usize * 64 + q.x as usize
    };
    for variant in Variant::ALL {
        let frame = render(&ctx, &mut scopes, &renderer, variant);
        assert_eq!(frame.rgba[pixel(camera)], 2, "{variant:?}");
        assert_eq!(packing.unpack(frame.packed[pixel(camera)]).unwrap().1, 1);
    }
}

/// A scene seen at an angle: the projection's rounding may differ between GPU and CPU (fused
/// multiply-adds), so the depth test is checked on the GPU's own projected points, and the
/// projection separately, within a tolerance.
#[test]
fn a_general_view_matches_the_reference_on_the_gpus_projection() {
    let (ctx, mut scopes) = open();
    let cloud = PointCloud::scene(20_000, 2);
    let size = (96, 64);
    let camera = Camera::look_at(
        [15.0, 12.0, -9.0],
        [5.0, 5.0, 4.0],
        [0.0, 1.0, 0.0],
        50.0,
        size,
    );
    let packing = packing_for(cloud.len()).unwrap();
    let renderer = Renderer::new(&ctx, &cloud, &camera, size, packing).unwrap();
    let mut naive = None;
    for variant in [Variant::Naive, Variant::EarlyReject] {
        let got = render(&ctx, &mut scopes, &renderer, variant);
        let projected = renderer.read_projected(&ctx).unwrap();
        for (g, c) in projected.iter().zip(project_all(&cloud, &camera)) {
            let close = |a: f32, b: f32| (a - b).abs() <= 1e-4 * b.abs().max(1.0);
            assert!(
                close(g.x, c.x) && close(g.y, c.y) && close(g.depth, c.depth),
                "{g:?} vs {c:?}"
            );
        }
        let want = reference::render_projected(&projected, &cloud.colours, size, &packing).unwrap();
        assert!(
            covered_pixels(&want) > 1_000,
            "{} pixels",
            covered_pixels(&want)
        );
        assert_eq!(got, want, "{variant:?}");
        naive = Some(got);
    }
    // The fused kernel projects in registers: allow the few pixels where a rounding moved a
    // point across a pixel's edge or a depth bin's edge.
    let naive = naive.unwrap();
    let fused = render(&ctx, &mut scopes, &renderer, Variant::Fused);
    let differ = fused
        .packed
        .iter()
        .zip(&naive.packed)
        .filter(|(a, b)| a != b)
        .count();
    assert!(differ * 200 <= naive.packed.len(), "{differ} pixels differ");
}

#[test]
fn each_pass_has_its_gpu_scope() {
    let (ctx, mut scopes) = open();
    let cloud = exact_scene();
    let packing = packing_for(cloud.len()).unwrap();
    let renderer = Renderer::new(&ctx, &cloud, &exact_camera(), SIZE, packing).unwrap();
    for (variant, passes) in [
        (
            Variant::Naive,
            &["clear", "project", "splat", "resolve"][..],
        ),
        (Variant::Fused, &["clear", "project+splat", "resolve"][..]),
    ] {
        let roots = renderer.render(&ctx, &mut scopes, variant).unwrap();
        assert_eq!(roots.len(), 1, "{roots:?}");
        let names: Vec<&str> = roots[0].children.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(names, passes);
        for pair in roots[0].children.windows(2) {
            assert!(
                pair[0].end_s <= pair[1].start_s,
                "passes run in order: {pair:?}"
            );
        }
    }
}

/// What `point_cloud_figures --only capture` does, on this machine's adapter: scopes as debug
/// groups (which a debug build's wgpu passes on to Vulkan), the frame in a named group, between
/// the capture calls (which do nothing without a debugger). The frame is still the reference's.
#[test]
fn a_named_frame_between_capture_calls_is_still_the_reference_frame() {
    let ctx = GpuScopes::open_context().expect("an adapter with timestamp queries");
    let mut scopes = GpuScopes::with_debug_groups(&ctx, true).unwrap();
    let cloud = exact_scene();
    let camera = exact_camera();
    let packing = packing_for(cloud.len()).unwrap();
    let want = reference::render(&cloud, &camera, SIZE, &packing).unwrap();
    let renderer = Renderer::new(&ctx, &cloud, &camera, SIZE, packing).unwrap();
    // SAFETY: one capture at a time, stopped after the frame has finished.
    unsafe { ctx.device.start_graphics_debugger_capture() };
    let roots = renderer.render_named(&ctx, &mut scopes, Variant::Fused, "fused frame");
    unsafe { ctx.device.stop_graphics_debugger_capture() };
    let roots = roots.unwrap();
    assert_eq!(roots.len(), 1, "{roots:?}");
    let names: Vec<&str> = roots[0].children.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(names, ["clear", "project+splat", "resolve"]);
    assert_eq!(renderer.read_frame(&ctx).unwrap(), want);
}

#[test]
fn bad_frames_and_clouds_are_refused_with_a_reason() {
    let ctx = GpuContext::for_tests();
    let cloud = exact_scene();
    let camera = exact_camera();
    let packing = packing_for(cloud.len()).unwrap();
    let zero = Renderer::new(&ctx, &cloud, &camera, (0, 48), packing);
    assert!(matches!(
        zero,
        Err(RenderError::Pack(PackError::Image { .. }))
    ));
    assert!(matches!(
        reference::render(&cloud, &camera, (64, 0), &packing),
        Err(RenderError::Pack(PackError::Image { .. }))
    ));
    // 24 depth bits leave 8 id bits: ids 0 to 255.
    let narrow = Packing32::new(24, 0.1, 40.0).unwrap();
    let err = Renderer::new(&ctx, &cloud, &camera, SIZE, narrow)
        .err()
        .unwrap();
    assert!(err.to_string().contains("ids 0 to 255"), "{err}");
    assert!(matches!(packing_for(0), Err(RenderError::Empty)));
    let err = packing_for((1 << 24) + 1).unwrap_err();
    assert!(
        matches!(err, RenderError::TooManyPoints { id_bits: 25, .. }),
        "{err}"
    );
    assert_eq!(packing_for(1 << 24).unwrap().depth_bits(), 8);
    let mut odd = cloud.clone();
    odd.colours.pop();
    assert!(matches!(
        Renderer::new(&ctx, &odd, &camera, SIZE, packing),
        Err(RenderError::Colours { .. })
    ));
}
