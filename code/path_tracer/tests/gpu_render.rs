//! Both GPU renderers against the CPU reference, on a tiny scene: the same random streams give
//! the same image up to float rounding, and the wavefront's queue counters add up.

use gpu_context::GpuContext;
use path_tracer::bvh::{BuildMethod, Bvh};
use path_tracer::megakernel::Megakernel;
use path_tracer::reference::{self, Image};
use path_tracer::wavefront::Wavefront;
use path_tracer::{GpuScene, RenderSettings, Scene};

fn tiny() -> (Bvh, Scene, RenderSettings) {
    let scene = Scene::room(60, 5);
    (
        Bvh::build(&scene.triangles),
        scene,
        RenderSettings::new(20, 16, 8, 6),
    )
}

/// Paths that graze an edge may go another way on the GPU after a rounding difference, so a few
/// pixels may differ; every other pixel must agree to float rounding.
fn assert_close(gpu: &Image, cpu: &Image) {
    assert_eq!(gpu.pixels.len(), cpu.pixels.len());
    let differing = gpu
        .pixels
        .iter()
        .zip(&cpu.pixels)
        .filter(|(g, c)| (0..3).any(|i| (g[i] - c[i]).abs() > 1e-3 * (1.0 + c[i].abs())))
        .count();
    eprintln!("{differing} of {} pixels differ", gpu.pixels.len());
    let lit = cpu
        .pixels
        .iter()
        .filter(|c| c.iter().any(|&v| v > 0.0))
        .count();
    assert!(
        lit > cpu.pixels.len() / 10,
        "only {lit} pixels lit: the test scene is too dark"
    );
    assert!(
        differing * 50 <= gpu.pixels.len(),
        "{differing} of {} pixels differ from the CPU reference",
        gpu.pixels.len()
    );
}

#[test]
fn megakernel_matches_the_cpu_reference() {
    let ctx = GpuContext::for_tests();
    let (bvh, scene, settings) = tiny();
    let (cpu, _) = reference::render(&bvh, &scene.materials, &settings);
    let gpu_scene = GpuScene::upload(&ctx, &bvh, &scene.materials).unwrap();
    let (gpu, _) = Megakernel::new(&ctx)
        .unwrap()
        .render(&ctx, &gpu_scene, settings, None)
        .unwrap();
    assert_close(&gpu, &cpu);
}

#[test]
fn wavefront_matches_the_cpu_reference_and_its_queues_add_up() {
    let ctx = GpuContext::for_tests();
    let (bvh, scene, settings) = tiny();
    let (cpu, rays_per_bounce) = reference::render(&bvh, &scene.materials, &settings);
    let gpu_scene = GpuScene::upload(&ctx, &bvh, &scene.materials).unwrap();
    let out = Wavefront::new(&ctx)
        .unwrap()
        .render(&ctx, &gpu_scene, settings, None)
        .unwrap();
    assert_close(&out.image, &cpu);

    let depth = settings.max_depth as usize;
    assert_eq!(out.counts.len(), settings.samples as usize * depth);
    let mut gpu_rays_per_bounce = vec![0u64; depth];
    for (step, c) in out.counts.iter().enumerate() {
        let bounce = step % depth;
        assert_eq!(c.rays_in, c.terminated + c.continued, "step {step}: {c:?}");
        if bounce == 0 {
            assert_eq!(c.rays_in, settings.pixels());
        } else {
            assert_eq!(c.rays_in, out.counts[step - 1].continued, "step {step}");
        }
        if bounce + 1 == depth {
            assert_eq!(c.continued, 0, "the last bounce continues nothing");
        }
        gpu_rays_per_bounce[bounce] += u64::from(c.rays_in);
    }
    // The same paths, so about the same number of rays at each bounce.
    for (gpu, cpu) in gpu_rays_per_bounce.iter().zip(&rays_per_bounce) {
        assert!(
            gpu.abs_diff(*cpu) * 50 <= *cpu,
            "{gpu_rays_per_bounce:?} vs {rays_per_bounce:?}"
        );
    }
    assert!(
        gpu_rays_per_bounce[depth - 1] > 0,
        "no path reached the last bounce"
    );
}

#[test]
fn bad_settings_are_an_error_not_a_panic() {
    let ctx = GpuContext::for_tests();
    let (bvh, scene, _) = tiny();
    let gpu_scene = GpuScene::upload(&ctx, &bvh, &scene.materials).unwrap();
    let zero_samples = RenderSettings::new(8, 8, 0, 2);
    let err = Megakernel::new(&ctx)
        .unwrap()
        .render(&ctx, &gpu_scene, zero_samples, None);
    assert!(err.unwrap_err().to_string().contains("at least 1"));
}

/// Both GPU renderers walk the binned-SAH tree with the same shader code, and give the image the
/// CPU renders over the Morton tree.
#[test]
fn both_renderers_walk_the_sah_tree_too() {
    let ctx = GpuContext::for_tests();
    let (morton, scene, settings) = tiny();
    let (cpu, _) = reference::render(&morton, &scene.materials, &settings);
    let sah = Bvh::build_with(BuildMethod::BinnedSah, &scene.triangles);
    let gpu_scene = GpuScene::upload(&ctx, &sah, &scene.materials).unwrap();
    let (mega, _) = Megakernel::new(&ctx)
        .unwrap()
        .render(&ctx, &gpu_scene, settings, None)
        .unwrap();
    assert_close(&mega, &cpu);
    let wave = Wavefront::new(&ctx)
        .unwrap()
        .render(&ctx, &gpu_scene, settings, None)
        .unwrap();
    assert_close(&wave.image, &cpu);
}
