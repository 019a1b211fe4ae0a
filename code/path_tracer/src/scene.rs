//! The scene: triangles with a material each, stored exactly as the shaders read them.

use bench_harness::rng::SplitMix64;
use bytemuck::{Pod, Zeroable};

/// A triangle as the GPU stores it: one corner and the two edges leaving it (what the
/// Möller–Trumbore test needs), 48 bytes with the padding WGSL's `vec3f` alignment asks for.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Triangle {
    pub v0: [f32; 3],
    pub material: u32,
    pub e1: [f32; 3],
    pub _pad1: u32,
    pub e2: [f32; 3],
    pub _pad2: u32,
}

/// A diffuse surface that may also emit light (an emitter absorbs: its albedo is black).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Material {
    pub albedo: [f32; 3],
    pub _pad1: u32,
    pub emission: [f32; 3],
    pub _pad2: u32,
}

/// A ray: where it starts and where it goes (not necessarily of unit length).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub origin: [f32; 3],
    pub dir: [f32; 3],
}

pub const WHITE: u32 = 0;
pub const RED: u32 = 1;
pub const GREEN: u32 = 2;
pub const LIGHT: u32 = 3;
pub const CONFETTI: u32 = 4;

pub fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn scale(a: [f32; 3], s: f32) -> [f32; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub fn mul(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] * b[0], a[1] * b[1], a[2] * b[2]]
}

pub fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn normalize(a: [f32; 3]) -> [f32; 3] {
    scale(a, 1.0 / dot(a, a).sqrt())
}

impl Triangle {
    pub fn new(a: [f32; 3], b: [f32; 3], c: [f32; 3], material: u32) -> Self {
        Self {
            v0: a,
            material,
            e1: sub(b, a),
            e2: sub(c, a),
            ..Default::default()
        }
    }

    pub fn corners(&self) -> [[f32; 3]; 3] {
        [self.v0, add(self.v0, self.e1), add(self.v0, self.e2)]
    }

    pub fn centroid(&self) -> [f32; 3] {
        let [a, b, c] = self.corners();
        scale(add(add(a, b), c), 1.0 / 3.0)
    }

    // ANCHOR: intersect
    /// Möller–Trumbore: the distance along `ray` to this triangle, if it is hit between
    /// `T_MIN` and `t_max`. The shaders run the same steps in the same order.
    pub fn intersect(&self, ray: &Ray, t_max: f32) -> Option<f32> {
        let p = cross(ray.dir, self.e2);
        let det = dot(self.e1, p);
        if det.abs() < 1e-12 {
            return None; // the ray runs parallel to the triangle's plane
        }
        let inv_det = 1.0 / det;
        let s = sub(ray.origin, self.v0);
        let u = dot(s, p) * inv_det;
        if !(0.0..=1.0).contains(&u) {
            return None;
        }
        let q = cross(s, self.e1);
        let v = dot(ray.dir, q) * inv_det;
        if v < 0.0 || u + v > 1.0 {
            return None;
        }
        let t = dot(self.e2, q) * inv_det;
        (t > T_MIN && t < t_max).then_some(t)
    }
    // ANCHOR_END: intersect
}

/// Hits nearer than this are ignored (a bounce starts just off its surface anyway).
pub const T_MIN: f32 = 1e-5;

/// Triangles and the materials they name.
#[derive(Clone, Debug)]
pub struct Scene {
    pub triangles: Vec<Triangle>,
    pub materials: Vec<Material>,
}

fn material(albedo: [f32; 3], emission: [f32; 3]) -> Material {
    Material {
        albedo,
        emission,
        ..Default::default()
    }
}

/// Two triangles for the quad a, b, c, d (corners in order around it).
fn quad(out: &mut Vec<Triangle>, [a, b, c, d]: [[f32; 3]; 4], material: u32) {
    out.push(Triangle::new(a, b, c, material));
    out.push(Triangle::new(a, c, d, material));
}

// ANCHOR: room
impl Scene {
    /// A closed room (x and y from 0 to 1, z from -2 to 1; red wall left, green wall right, a
    /// light in the ceiling) holding `confetti` small random triangles, placed by the seeded
    /// generator: the same scene on every machine. The camera stands inside, so no path
    /// escapes: every path ends on the light or at the bounce limit.
    pub fn room(confetti: usize, seed: u64) -> Self {
        let materials = vec![
            material([0.73, 0.73, 0.73], [0.0; 3]),
            material([0.65, 0.05, 0.05], [0.0; 3]),
            material([0.12, 0.45, 0.15], [0.0; 3]),
            material([0.0; 3], [12.0, 11.0, 9.0]),
            material([0.3, 0.4, 0.8], [0.0; 3]),
        ];
        let mut t = Vec::new();
        let (lo, hi) = (0.0, 1.0);
        let back = -2.0; // the wall behind the camera
        quad(
            &mut t,
            [[lo, lo, back], [hi, lo, back], [hi, lo, hi], [lo, lo, hi]],
            WHITE,
        );
        quad(
            &mut t,
            [[lo, hi, back], [lo, hi, hi], [hi, hi, hi], [hi, hi, back]],
            WHITE,
        );
        quad(
            &mut t,
            [[lo, lo, hi], [hi, lo, hi], [hi, hi, hi], [lo, hi, hi]],
            WHITE,
        );
        quad(
            &mut t,
            [
                [lo, lo, back],
                [lo, hi, back],
                [hi, hi, back],
                [hi, lo, back],
            ],
            WHITE,
        );
        quad(
            &mut t,
            [[lo, lo, back], [lo, lo, hi], [lo, hi, hi], [lo, hi, back]],
            RED,
        );
        quad(
            &mut t,
            [[hi, lo, back], [hi, hi, back], [hi, hi, hi], [hi, lo, hi]],
            GREEN,
        );
        let y = hi - 1e-3;
        quad(
            &mut t,
            [
                [0.35, y, 0.35],
                [0.35, y, 0.65],
                [0.65, y, 0.65],
                [0.65, y, 0.35],
            ],
            LIGHT,
        );
        // Smaller triangles as their number grows, so that they fill about the same volume.
        let size = 0.25 / (confetti.max(1) as f32).cbrt();
        let mut rng = SplitMix64::new(seed);
        for _ in 0..confetti {
            let centre = [
                0.1 + 0.8 * rng.next_f32(),
                0.05 + 0.8 * rng.next_f32(),
                0.1 + 0.8 * rng.next_f32(),
            ];
            let mut corner = || add(centre, [0.0; 3].map(|_| rng.symmetric(size)));
            let (a, b, c) = (corner(), corner(), corner());
            t.push(Triangle::new(a, b, c, CONFETTI));
        }
        Self {
            triangles: t,
            materials,
        }
    }
}
// ANCHOR_END: room
