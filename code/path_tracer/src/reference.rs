//! The CPU path tracer: the same steps as the shaders, one path at a time, in plain Rust. The GPU
//! renderers are tested against its image.

use crate::bvh::Bvh;
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

// ANCHOR: path
/// The radiance one path brings back to the camera, and how many rays it traced.
pub fn trace_path(
    bvh: &Bvh,
    materials: &[Material],
    settings: &RenderSettings,
    pixel: u32,
    sample: u32,
) -> ([f32; 3], u32) {
    let rng = |bounce, dim| random(settings.seed, pixel, sample, bounce, dim);
    let (w, h, tan) = (settings.width, settings.height, settings.tan_half_fov);
    let mut ray = camera_ray(w, h, tan, pixel, [rng(0, 0), rng(0, 1)]);
    let mut throughput = [1.0f32; 3];
    let mut radiance = [0.0f32; 3];
    for bounce in 0..settings.max_depth {
        let Some(hit) = bvh.closest_hit(&ray) else {
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
