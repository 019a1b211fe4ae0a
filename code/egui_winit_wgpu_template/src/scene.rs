//! What the engine draws, as plain data: no GPU here. Commands change it, time moves it, and
//! [`Scene::uniforms`] turns it into the numbers the shader needs.

use crate::render_input::{Key, Pointer};

/// The parameters the control panel sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// sRGB colour, as a colour picker shows it.
    pub colour: [u8; 3],
    /// Angle added to the animation, in degrees.
    pub rotation_deg: f32,
    /// Spin speed, degrees per second (negative: clockwise).
    pub speed_deg_per_s: f32,
    pub paused: bool,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            colour: [255, 136, 0],
            rotation_deg: 0.0,
            speed_deg_per_s: 45.0,
            paused: false,
        }
    }
}

/// The clear colour behind the triangle (sRGB).
pub const BACKGROUND: [u8; 3] = [24, 26, 38];

/// The triangle's radius in a fresh scene, in clip-space units (the window's height is 2).
pub const START_SCALE: f32 = 0.6;

/// The parameters plus what time, the keyboard and the mouse did to them.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub params: Params,
    initial: Params,
    /// Angle the animation has turned through, degrees.
    pub spin_deg: f32,
    /// Centre of the triangle in clip space (-1..1, y up).
    pub offset: [f32; 2],
    /// Radius of the triangle in clip space units (height direction).
    pub scale: f32,
    pointer: Option<[f32; 2]>,
    dragging: bool,
}

// ANCHOR: uniforms
/// The shader's uniform block. `repr(C)` and 16-byte rows, as WGSL's layout rules want.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Uniforms {
    /// Colour in the target's space: linear for an sRGB target, as given otherwise.
    pub colour: [f32; 4],
    /// x, y: centre; z: angle in radians; w: scale.
    pub transform: [f32; 4],
    /// x: width / height of the target; y, z, w: unused padding.
    pub aspect: [f32; 4],
}
// ANCHOR_END: uniforms

impl Scene {
    pub fn new(params: Params) -> Self {
        Self {
            params,
            initial: params,
            spin_deg: 0.0,
            offset: [0.0, 0.0],
            scale: START_SCALE,
            pointer: None,
            dragging: false,
        }
    }

    /// The triangle's angle now, in degrees.
    pub fn angle_deg(&self) -> f32 {
        self.params.rotation_deg + self.spin_deg
    }

    /// Back to the scene it started as: start parameters, no spin, centred, start size.
    pub fn reset(&mut self) {
        *self = Scene::new(self.initial);
    }

    /// Reacts to a key pressed in the render window.
    pub fn key(&mut self, key: Key) {
        match key {
            Key::Left => self.spin_deg += 15.0,
            Key::Right => self.spin_deg -= 15.0,
            Key::Up => {
                self.params.speed_deg_per_s = (self.params.speed_deg_per_s + 15.0).min(720.0)
            }
            Key::Down => {
                self.params.speed_deg_per_s = (self.params.speed_deg_per_s - 15.0).max(-720.0);
            }
            Key::Space => self.params.paused = !self.params.paused,
            Key::Reset => self.reset(),
        }
    }

    /// Reacts to the mouse: dragging with the left button moves the triangle, the wheel scales it.
    /// `size` is the window's drawing area in pixels, to turn pixels into clip-space units.
    pub fn pointer(&mut self, event: Pointer, size: [u32; 2]) {
        let [w, h] = [size[0].max(1) as f32, size[1].max(1) as f32];
        match event {
            Pointer::Moved { x, y } => {
                if let (true, Some([px, py])) = (self.dragging, self.pointer) {
                    self.offset[0] = (self.offset[0] + 2.0 * (x - px) / w).clamp(-1.0, 1.0);
                    self.offset[1] = (self.offset[1] - 2.0 * (y - py) / h).clamp(-1.0, 1.0);
                }
                self.pointer = Some([x, y]);
            }
            Pointer::Pressed => self.dragging = true,
            Pointer::Released => self.dragging = false,
            Pointer::Left => {
                self.pointer = None;
                self.dragging = false;
            }
            Pointer::Scrolled { lines } => {
                self.scale = (self.scale * 1.1f32.powf(lines)).clamp(0.05, 2.0);
            }
        }
    }

    /// Moves the animation on by `dt_s` seconds.
    pub fn advance(&mut self, dt_s: f32) {
        if !self.params.paused {
            self.spin_deg = (self.spin_deg + self.params.speed_deg_per_s * dt_s) % 360.0;
        }
    }

    /// The shader's inputs for a target of `size` pixels; `srgb_target` says whether the
    /// hardware will encode the colour to sRGB on write (then the shader must output linear).
    pub fn uniforms(&self, size: [u32; 2], srgb_target: bool) -> Uniforms {
        Uniforms {
            colour: shader_colour(self.params.colour, srgb_target),
            transform: [
                self.offset[0],
                self.offset[1],
                self.angle_deg().to_radians(),
                self.scale,
            ],
            aspect: [size[0].max(1) as f32 / size[1].max(1) as f32, 0.0, 0.0, 1.0],
        }
    }
}

/// An sRGB byte colour as the shader must output it for a target of the given kind.
pub fn shader_colour(c: [u8; 3], srgb_target: bool) -> [f32; 4] {
    let channel = |b: u8| {
        let v = f32::from(b) / 255.0;
        if srgb_target { srgb_to_linear(v) } else { v }
    };
    [channel(c[0]), channel(c[1]), channel(c[2]), 1.0]
}

/// The sRGB transfer function, inverted: gamma-encoded 0..1 → linear light 0..1.
pub fn srgb_to_linear(v: f32) -> f32 {
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}
