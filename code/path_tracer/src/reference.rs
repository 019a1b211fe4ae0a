//! The CPU path tracer: the same steps as the shaders, one path at a time, in plain Rust. The GPU
//! renderers are tested against its image.

use crate::bvh::{Bvh, WalkCounts};
use crate::sampling::{
    RenderSettings, SURFACE_OFFSET, camera_ray, cosine_direction, facing_normal, random,
};
use crate::scene::{Material, Ray, add, mul, scale};

/// An image of linear radiance, one RGB triple per pixel, rows from the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<[f32; 3]>,
}

/// The radiance one path brings back to the camera, and how many rays it traced.
pub fn trace_path(
    bvh: &Bvh,
    materials: &[Material],
    settings: &RenderSettings,
    pixel: u32,
    sample: u32,
) -> ([f32; 3], u32) {
    trace_path_counted(
        bvh,
        materials,
        settings,
        pixel,
        sample,
        &mut WalkCounts::default(),
    )
}

/// [`trace_path`], adding to `counts` what its walks through the tree did.
pub fn trace_path_counted(
    bvh: &Bvh,
    materials: &[Material],
    settings: &RenderSettings,
    pixel: u32,
    sample: u32,
    counts: &mut WalkCounts,
) -> ([f32; 3], u32) {
    // ANCHOR: path
    let rng = |bounce, dim| random(settings.seed, pixel, sample, bounce, dim);
    let (w, h, tan) = (settings.width, settings.height, settings.tan_half_fov);
    let mut ray = camera_ray(w, h, tan, pixel, [rng(0, 0), rng(0, 1)]);
    let mut throughput = [1.0f32; 3];
    let mut radiance = [0.0f32; 3];
    for bounce in 0..settings.max_depth {
        let Some(hit) = bvh.closest_hit_counted(&ray, counts) else {
            return (radiance, bounce + 1); // left the scene (never, in a closed room)
        };
        let triangle = &bvh.triangles[hit.triangle as usize];
        let material = &materials[triangle.material as usize];
        if material.emission.iter().any(|&e| e > 0.0) {
            radiance = add(radiance, mul(throughput, material.emission));
            return (radiance, bounce + 1);
        }
        if bounce + 1 == settings.max_depth {
            return (radiance, bounce + 1);
        }
        // Russian roulette after the first bounce: go on with probability q, and weigh the
        // survivors by 1 / q so that the image stays the same on average.
        let q = if bounce == 0 { 1.0 } else { survival(material) };
        if rng(bounce, 4) >= q {
            return (radiance, bounce + 1);
        }
        let n = facing_normal(triangle.e1, triangle.e2, ray.dir);
        let p = add(ray.origin, scale(ray.dir, hit.t));
        throughput = mul(throughput, scale(material.albedo, 1.0 / q));
        ray = Ray {
            origin: add(p, scale(n, SURFACE_OFFSET)),
            dir: cosine_direction(n, rng(bounce, 2), rng(bounce, 3)),
        };
    }
    (radiance, settings.max_depth)
}
// ANCHOR_END: path

/// The chance that a path goes on after a bounce off `material`: its brightest albedo channel
/// (dark surfaces end paths sooner), at most 0.95.
pub fn survival(material: &Material) -> f32 {
    material.albedo[0]
        .max(material.albedo[1])
        .max(material.albedo[2])
        .min(0.95)
}

/// Every pixel's mean over `settings.samples` paths, and the number of rays traced at each
/// bounce (index 0: camera rays).
pub fn render(bvh: &Bvh, materials: &[Material], settings: &RenderSettings) -> (Image, Vec<u64>) {
    let mut rays_per_bounce = vec![0u64; settings.max_depth as usize];
    let pixels = (0..settings.pixels())
        .map(|pixel| {
            let mut sum = [0.0f32; 3];
            for sample in 0..settings.samples {
                let (l, rays) = trace_path(bvh, materials, settings, pixel, sample);
                sum = add(sum, l);
                for count in &mut rays_per_bounce[..rays as usize] {
                    *count += 1;
                }
            }
            scale(sum, 1.0 / settings.samples as f32)
        })
        .collect();
    let image = Image {
        width: settings.width,
        height: settings.height,
        pixels,
    };
    (image, rays_per_bounce)
}

/// What the walks of every path of a render did (the GPU renderers trace these same paths).
pub fn count_walks(bvh: &Bvh, materials: &[Material], settings: &RenderSettings) -> WalkCounts {
    let mut counts = WalkCounts::default();
    for pixel in 0..settings.pixels() {
        for sample in 0..settings.samples {
            trace_path_counted(bvh, materials, settings, pixel, sample, &mut counts);
        }
    }
    counts
}

/// The share of lanes busy in the walk's loop when the camera rays run in groups of `lanes`
/// consecutive pixels, as a GPU runs them in lockstep: each group goes round the loop as often
/// as its longest walk, and a lane whose walk has ended idles for the rest. Counted by walking
/// every camera ray and noting its trips round the loop.
pub fn camera_lane_use(bvh: &Bvh, settings: &RenderSettings, lanes: u32) -> f64 {
    let (w, h, tan) = (settings.width, settings.height, settings.tan_half_fov);
    let trips: Vec<u64> = (0..settings.pixels())
        .map(|pixel| {
            let jitter = [0, 1].map(|dim| random(settings.seed, pixel, 0, 0, dim));
            let mut counts = WalkCounts::default();
            bvh.closest_hit_counted(&camera_ray(w, h, tan, pixel, jitter), &mut counts);
            counts.nodes
        })
        .collect();
    let (busy, offered) = trips
        .chunks(lanes as usize)
        .map(|group| {
            let longest = group.iter().copied().max().unwrap_or(0);
            (group.iter().sum::<u64>(), longest * u64::from(lanes))
        })
        .fold((0, 0), |(b, o), (gb, go)| (b + gb, o + go));
    if offered == 0 {
        0.0
    } else {
        busy as f64 / offered as f64
    }
}
