//! Random numbers, the camera and the bounce direction: each a pure function of (pixel, sample,
//! bounce), so that the CPU reference, the megakernel and the wavefront draw the very same
//! numbers for the same path, whatever order they trace paths in.

use crate::scene::{Ray, add, cross, dot, normalize, scale};

// ANCHOR: random
/// PCG's output hash (Jarzynski and Olano, "Hash Functions for GPU Rendering", JCGT 2020): a
/// good 32-bit mix in a few multiplies, the same in Rust and WGSL.
pub fn pcg_hash(v: u32) -> u32 {
    let state = v.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// Random number `dim` of `bounce` of `sample` of `pixel`, uniform in [0, 1), from 24 bits (so
/// that the conversion to f32 is exact on both sides).
pub fn random(seed: u32, pixel: u32, sample: u32, bounce: u32, dim: u32) -> f32 {
    let h = pcg_hash(pixel ^ pcg_hash(sample ^ pcg_hash(bounce * 8 + dim + pcg_hash(seed))));
    (h >> 8) as f32 * (1.0 / 16_777_216.0)
}
// ANCHOR_END: random

/// Where the camera stands; it looks down +z.
pub const CAMERA: [f32; 3] = [0.5, 0.5, -1.4];

/// The ray through a random point of `pixel` (rows from the top), for an image of
/// `width × height` and a vertical field of view with `tan(fov / 2) = tan_half_fov`.
pub fn camera_ray(width: u32, height: u32, tan_half_fov: f32, pixel: u32, jitter: [f32; 2]) -> Ray {
    let (x, y) = ((pixel % width) as f32, (pixel / width) as f32);
    let aspect = width as f32 / height as f32;
    let sx = ((x + jitter[0]) / width as f32 * 2.0 - 1.0) * tan_half_fov * aspect;
    let sy = (1.0 - (y + jitter[1]) / height as f32 * 2.0) * tan_half_fov;
    Ray {
        origin: CAMERA,
        dir: normalize([sx, sy, 1.0]),
    }
}

// ANCHOR: bounce
/// A direction around the unit normal `n` with density cos θ / π (so that a diffuse surface's
/// cosine term and pdf cancel and the throughput is multiplied by the albedo alone). The frame
/// around `n` is Duff et al.'s branch-free one ("Building an Orthonormal Basis, Revisited", 2017).
pub fn cosine_direction(n: [f32; 3], u1: f32, u2: f32) -> [f32; 3] {
    let sign = if n[2] >= 0.0 { 1.0 } else { -1.0 };
    let a = -1.0 / (sign + n[2]);
    let b = n[0] * n[1] * a;
    let tangent = [1.0 + sign * n[0] * n[0] * a, sign * b, -sign * n[0]];
    let bitangent = [b, sign + n[1] * n[1] * a, -n[1]];
    let r = u1.sqrt();
    let phi = std::f32::consts::TAU * u2;
    let (x, y, z) = (r * phi.cos(), r * phi.sin(), (1.0 - u1).max(0.0).sqrt());
    add(add(scale(tangent, x), scale(bitangent, y)), scale(n, z))
}
// ANCHOR_END: bounce

/// The unit normal of the triangle with edges `e1`, `e2`, turned to face against `dir`.
pub fn facing_normal(e1: [f32; 3], e2: [f32; 3], dir: [f32; 3]) -> [f32; 3] {
    let n = normalize(cross(e1, e2));
    if dot(n, dir) > 0.0 { scale(n, -1.0) } else { n }
}

/// How far off its surface a bounce starts, so that it does not hit the triangle it left.
pub const SURFACE_OFFSET: f32 = 1e-4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_numbers_are_uniform_and_differ_per_stream() {
        let xs: Vec<f32> = (0..10_000).map(|p| random(7, p, 0, 0, 0)).collect();
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
        assert_ne!(random(7, 3, 0, 0, 0), random(7, 3, 1, 0, 0));
        assert_ne!(random(7, 3, 0, 0, 0), random(7, 3, 0, 1, 0));
        assert_ne!(random(7, 3, 0, 0, 0), random(7, 3, 0, 0, 1));
    }

    #[test]
    fn bounces_leave_the_surface_on_the_normals_side() {
        for (i, n) in [
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
            [0.6, 0.0, 0.8],
            [0.0, -1.0, 0.0],
        ]
        .into_iter()
        .enumerate()
        {
            for k in 0..100 {
                let d = cosine_direction(
                    n,
                    random(1, i as u32, k, 0, 2),
                    random(1, i as u32, k, 0, 3),
                );
                assert!(dot(d, n) >= 0.0);
                assert!((dot(d, d) - 1.0).abs() < 1e-4);
            }
        }
    }
}

/// What to render: the image size, paths per pixel, the bounce limit and the random seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSettings {
    pub width: u32,
    pub height: u32,
    /// Paths per pixel (one per pixel per pass).
    pub samples: u32,
    /// Rays per path at most: 1 sees only what the camera hits directly.
    pub max_depth: u32,
    pub seed: u32,
    /// tan(vertical field of view / 2).
    pub tan_half_fov: f32,
}

impl RenderSettings {
    pub fn new(width: u32, height: u32, samples: u32, max_depth: u32) -> Self {
        Self {
            width,
            height,
            samples,
            max_depth,
            seed: 1,
            tan_half_fov: 0.5,
        }
    }

    pub fn pixels(&self) -> u32 {
        self.width * self.height
    }
}
