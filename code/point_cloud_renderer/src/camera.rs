//! A pinhole camera: a position, three axes, and a focal length in pixels. The GPU and the CPU
//! reference project with the same f32 operations in the same order.

use quantization::specialisations::splat::ScreenPoint;

/// A camera looking along `forward` from `eye`; `right` and `up` span the image plane. Pixel
/// (0, 0) is the top-left corner; `y` grows downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: [f32; 3],
    pub right: [f32; 3],
    pub up: [f32; 3],
    pub forward: [f32; 3],
    /// Pixels per unit of `x / z` on the image plane.
    pub focal_px: f32,
    /// The pixel the optical axis goes through.
    pub centre_px: [f32; 2],
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalised(a: [f32; 3]) -> [f32; 3] {
    let n = dot(a, a).sqrt();
    a.map(|c| c / n)
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

impl Camera {
    /// A camera at `eye` looking at `target`, with a vertical field of view of `fov_y_degrees`
    /// over an image `height` pixels tall and `width` wide. `world_up` must not be parallel to the
    /// view direction.
    pub fn look_at(
        eye: [f32; 3],
        target: [f32; 3],
        world_up: [f32; 3],
        fov_y_degrees: f32,
        (width, height): (u32, u32),
    ) -> Self {
        let forward = normalised(sub(target, eye));
        let right = normalised(cross(forward, world_up));
        let up = cross(right, forward);
        let focal_px = 0.5 * height as f32 / (0.5 * fov_y_degrees.to_radians()).tan();
        Self {
            eye,
            right,
            up,
            forward,
            focal_px,
            centre_px: [0.5 * width as f32, 0.5 * height as f32],
        }
    }

    // ANCHOR: project
    /// Where a point lands: pixel coordinates and its depth along the view axis. A point at or
    /// behind the eye gets a negative position and depth, which every depth range clips.
    pub fn project(&self, p: [f32; 3]) -> ScreenPoint {
        let d = sub(p, self.eye);
        let z = dot(d, self.forward);
        if z <= 0.0 {
            return BEHIND;
        }
        let (x, y) = (dot(d, self.right), dot(d, self.up));
        ScreenPoint {
            x: self.centre_px[0] + self.focal_px * x / z,
            y: self.centre_px[1] - self.focal_px * y / z,
            depth: z,
        }
    }
    // ANCHOR_END: project

    /// The camera as the kernels read it (`Camera` in `camera.wgsl`).
    pub(crate) fn to_gpu(self, count: u32) -> GpuCamera {
        let v = |a: [f32; 3]| [a[0], a[1], a[2], 0.0];
        GpuCamera {
            eye: v(self.eye),
            right: v(self.right),
            up: v(self.up),
            forward: v(self.forward),
            focal_px: self.focal_px,
            centre_x: self.centre_px[0],
            centre_y: self.centre_px[1],
            count,
        }
    }
}

/// What [`Camera::project`] gives a point it cannot see.
pub const BEHIND: ScreenPoint = ScreenPoint {
    x: -1.0,
    y: -1.0,
    depth: -1.0,
};

/// `Camera` in `camera.wgsl`, field for field (vec4 for alignment; `w` unused).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct GpuCamera {
    eye: [f32; 4],
    right: [f32; 4],
    up: [f32; 4],
    forward: [f32; 4],
    focal_px: f32,
    centre_x: f32,
    centre_y: f32,
    count: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_lands_in_the_middle_and_nearer_is_smaller_depth() {
        let cam = Camera::look_at([0.0, 0.0, -5.0], [0.0; 3], [0.0, 1.0, 0.0], 60.0, (64, 48));
        let c = cam.project([0.0; 3]);
        assert!(
            (c.x - 32.0).abs() < 1e-4 && (c.y - 24.0).abs() < 1e-4,
            "{c:?}"
        );
        assert!((c.depth - 5.0).abs() < 1e-5);
        // Up in the world is up on the screen (smaller y). Right-handed: looking along +z with
        // +y up, +x is on the left.
        let above = cam.project([0.0, 1.0, 0.0]);
        assert!(above.y < c.y);
        assert_eq!(cam.right, [-1.0, 0.0, 0.0]);
        let right = cam.project([-1.0, 0.0, 0.0]);
        assert!(right.x > c.x, "{right:?}");
        assert_eq!(cam.project([0.0, 0.0, -6.0]), BEHIND);
    }
}
