// What the renderer's kernels share: module 3's splat parameters (quantization's SplatParams),
// the pinhole camera of camera.rs, and its projection with the same f32 operations in the same
// order as Camera::project.

// Module 3's splat parameters, field for field.
struct Params {
    width: u32,
    height: u32,
    count: u32,
    id_bits: u32,
    near: f32,
    far: f32,
    scale: f32,
    max_code: u32,
}

struct Camera {
    eye: vec4<f32>,
    right: vec4<f32>,
    up: vec4<f32>,
    forward: vec4<f32>,
    focal_px: f32,
    centre_x: f32,
    centre_y: f32,
    count: u32,
}

struct ScreenPoint {
    x: f32,
    y: f32,
    depth: f32,
}

// Positions as three f32s (12 bytes a point, as the Rust [f32; 3]).
struct Position {
    x: f32,
    y: f32,
    z: f32,
}

// ANCHOR: project
fn project(c: Camera, p: Position) -> ScreenPoint {
    let d = vec3<f32>(p.x - c.eye.x, p.y - c.eye.y, p.z - c.eye.z);
    let z = d.x * c.forward.x + d.y * c.forward.y + d.z * c.forward.z;
    if z <= 0.0 {
        return ScreenPoint(-1.0, -1.0, -1.0);
    }
    let x = d.x * c.right.x + d.y * c.right.y + d.z * c.right.z;
    let y = d.x * c.up.x + d.y * c.up.y + d.z * c.up.z;
    return ScreenPoint(c.centre_x + c.focal_px * x / z, c.centre_y - c.focal_px * y / z, z);
}
// ANCHOR_END: project
