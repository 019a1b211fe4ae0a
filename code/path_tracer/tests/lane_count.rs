//! The GPU's ballot counters agree with the CPU's count of the same walks and paths, and every
//! lane's trip is seen by exactly one ballot, in the camera rays' walk, at the top of the
//! megakernel's bounces and in the wavefront's own `intersect`.

use gpu_context::GpuContext;
use path_tracer::bvh::{BuildMethod, Bvh, WalkCounts};
use path_tracer::lane_count::LaneCounter;
use path_tracer::reference::{count_walks, render};
use path_tracer::sampling::{camera_ray, random};
use path_tracer::wavefront::Wavefront;
use path_tracer::{GpuScene, RenderSettings, Scene};

#[test]
fn ballots_count_every_trip_once_and_match_the_cpu_walks() {
    let ctx: GpuContext = LaneCounter::open_context()
        .expect("this test needs an adapter with subgroup operations (lavapipe has them)");
    let counter = LaneCounter::new(&ctx).unwrap();
    let scene = Scene::room(400, 21);
    let settings = RenderSettings::new(40, 30, 1, 1);
    for method in BuildMethod::ALL {
        let bvh = Bvh::build_with(method, &scene.triangles);
        let on_gpu = GpuScene::upload(&ctx, &bvh, &scene.materials).unwrap();
        let gpu = counter.count(&ctx, &on_gpu, settings).unwrap();
        let mut cpu = WalkCounts::default();
        for pixel in 0..settings.pixels() {
            let jitter = [0, 1].map(|dim| random(settings.seed, pixel, 0, 0, dim));
            let (w, h, tan) = (settings.width, settings.height, settings.tan_half_fov);
            bvh.closest_hit_counted(&camera_ray(w, h, tan, pixel, jitter), &mut cpu);
        }
        assert_eq!(gpu.busy, gpu.lane_trips, "{method:?}: {gpu:?}");
        assert!(gpu.busy <= gpu.offered, "{gpu:?}");
        assert!(gpu.lane_use() > 0.0 && gpu.lane_use() <= 1.0, "{gpu:?}");
        // Float rounding may send a grazing ray another way on the GPU; nearly every trip agrees.
        let diff = gpu.lane_trips.abs_diff(cpu.nodes);
        assert!(
            diff * 200 <= cpu.nodes,
            "{method:?}: GPU {gpu:?}, CPU {cpu:?}"
        );
    }
}

#[test]
fn bounce_ballots_count_the_paths_alive_at_every_bounce() {
    let ctx: GpuContext = LaneCounter::open_context()
        .expect("this test needs an adapter with subgroup operations (lavapipe has them)");
    let counter = LaneCounter::new(&ctx).unwrap();
    let scene = Scene::room(400, 21);
    let settings = RenderSettings::new(40, 30, 1, 8);
    let bvh = Bvh::build_with(BuildMethod::BinnedSah, &scene.triangles);
    let on_gpu = GpuScene::upload(&ctx, &bvh, &scene.materials).unwrap();
    let gpu = counter.count_bounces(&ctx, &on_gpu, settings).unwrap();
    // The CPU reference traces the same paths: rays per bounce are the paths alive there.
    let (_, cpu) = render(&bvh, &scene.materials, &settings);
    assert_eq!(gpu.len(), cpu.len());
    assert_eq!(gpu[0].busy, u64::from(settings.pixels()), "{gpu:?}");
    for (b, (g, &c)) in gpu.iter().zip(&cpu).enumerate() {
        assert!(g.busy <= g.offered, "bounce {b}: {g:?}");
        // One width for every ballot: what was offered is whole subgroups.
        assert_eq!(
            g.offered,
            g.subgroups * gpu[0].offered / gpu[0].subgroups,
            "{g:?}"
        );
        // Float rounding may end a grazing path differently on the GPU; nearly all agree.
        assert!(
            g.busy.abs_diff(c) * 100 <= c.max(1),
            "bounce {b}: GPU {g:?}, CPU {c} paths alive"
        );
    }
    assert!(
        gpu.windows(2).all(|w| w[1].busy <= w[0].busy),
        "paths only die: {gpu:?}"
    );
}

#[test]
fn wavefront_ballots_count_every_trip_of_its_own_intersect_at_every_bounce() {
    let ctx: GpuContext = LaneCounter::open_context()
        .expect("this test needs an adapter with subgroup operations (lavapipe has them)");
    let wavefront = Wavefront::new(&ctx).unwrap();
    let scene = Scene::room(400, 21);
    let settings = RenderSettings::new(40, 30, 1, 8);
    let bvh = Bvh::build_with(BuildMethod::BinnedSah, &scene.triangles);
    let on_gpu = GpuScene::upload(&ctx, &bvh, &scene.materials).unwrap();
    let plain = wavefront.render(&ctx, &on_gpu, settings, None).unwrap();
    let (image, lanes) = wavefront
        .render_counting_lanes(&ctx, &on_gpu, settings)
        .unwrap();
    assert_eq!(image.pixels, plain.image.pixels, "counting changes no hit");
    assert_eq!(lanes.len(), settings.max_depth as usize);
    for (b, l) in lanes.iter().enumerate() {
        assert_eq!(
            l.busy, l.lane_trips,
            "bounce {b}: every trip seen once: {l:?}"
        );
        assert!(l.busy <= l.offered, "bounce {b}: {l:?}");
    }
    // Over all bounces the lanes' trips are the node visits of every path's walks, which the CPU
    // counts for the same paths; float rounding may send a grazing ray another way.
    let gpu_trips: u64 = lanes.iter().map(|l| l.lane_trips).sum();
    let cpu = count_walks(&bvh, &scene.materials, &settings);
    assert!(
        gpu_trips.abs_diff(cpu.nodes) * 200 <= cpu.nodes,
        "GPU {gpu_trips} trips, CPU {cpu:?}"
    );
}
