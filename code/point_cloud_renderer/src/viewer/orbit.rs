//! The renderer behind the viewer: rebuilt when the point count changes, drawn from a camera
//! that circles module 3's 10 m box.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gpu_context::{GpuContext, GpuScopes};

use crate::{BACKGROUND, Camera, PointCloud, RenderError, Renderer, Variant, packing_for};

/// The point counts the panel offers (multiples of five: the scene has five shapes).
pub const POINT_COUNTS: [usize; 3] = [10_000, 100_000, 1_000_000];

/// Radians per second the camera turns while orbiting.
const ORBIT_RAD_PER_S: f32 = 0.5;

/// What the panel lets the user choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewerSettings {
    pub points: usize,
    pub variant: Variant,
    pub orbit: bool,
}

impl Default for ViewerSettings {
    fn default() -> Self {
        Self {
            points: POINT_COUNTS[0],
            variant: Variant::Fused,
            orbit: true,
        }
    }
}

/// One frame the viewer drew, read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// Points in the cloud drawn.
    pub points: usize,
    pub variant: Variant,
    /// Counts the frames drawn since the viewer started, from 1.
    pub index: u64,
    pub width: u32,
    pub height: u32,
    /// RGBA8 per pixel, red in the low byte.
    pub rgba: Vec<u32>,
}

impl Rendered {
    /// Pixels some point reached.
    pub fn covered(&self) -> usize {
        self.rgba.iter().filter(|&&c| c != BACKGROUND).count()
    }
}

struct Loaded {
    requested: usize,
    points: usize,
    renderer: Renderer,
}

/// The GPU side of the viewer: a device, the renderer for the chosen cloud, the camera's angle.
pub struct Viewer {
    ctx: GpuContext,
    scopes: GpuScopes,
    size: (u32, u32),
    loaded: Option<Loaded>,
    angle: f32,
    /// Shared, so the caller can still read it after the template has dropped the panel.
    frames: Arc<AtomicU64>,
}

impl Viewer {
    /// Opens the adapter and its scopes; frames are `width`×`height` pixels.
    pub fn new(size: (u32, u32)) -> Result<Self, RenderError> {
        let ctx = GpuContext::new()?;
        let scopes = GpuScopes::new(&ctx)?;
        Ok(Self {
            ctx,
            scopes,
            size,
            loaded: None,
            angle: 0.0,
            frames: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Counts the frames drawn; stays readable after the viewer is dropped.
    pub fn frame_counter(&self) -> Arc<AtomicU64> {
        self.frames.clone()
    }

    /// Draws the next frame: rebuilds the renderer when the point count changed, turns the
    /// camera by `elapsed_s` while orbiting, renders with the chosen variant and reads it back.
    // ANCHOR: render_next
    pub fn render_next(
        &mut self,
        settings: &ViewerSettings,
        elapsed_s: f32,
    ) -> Result<Rendered, RenderError> {
        if settings.orbit {
            self.angle = (self.angle + ORBIT_RAD_PER_S * elapsed_s) % std::f32::consts::TAU;
        }
        let camera = orbit_camera(self.angle, self.size);
        if self.loaded.as_ref().map(|l| l.requested) != Some(settings.points) {
            let cloud = PointCloud::scene(settings.points, 1);
            let packing = packing_for(cloud.len())?;
            let renderer = Renderer::new(&self.ctx, &cloud, &camera, self.size, packing)?;
            self.loaded = Some(Loaded {
                requested: settings.points,
                points: cloud.len(),
                renderer,
            });
        }
        let Some(loaded) = &self.loaded else {
            unreachable!("loaded just above");
        };
        loaded.renderer.set_camera(&self.ctx, &camera);
        loaded
            .renderer
            .render(&self.ctx, &mut self.scopes, settings.variant)?;
        // Simple, and honest about its cost: the panel's thread waits for the GPU (no overlap),
        // copies width × height × 4 bytes back (230 400 at 320×180), and egui uploads them again;
        // a renderer that wants its full frame rate draws into the window's own texture instead.
        let rgba = loaded.renderer.read_rgba(&self.ctx)?;
        let index = self.frames.fetch_add(1, Ordering::Relaxed) + 1;
        Ok(Rendered {
            points: loaded.points,
            variant: settings.variant,
            index,
            width: self.size.0,
            height: self.size.1,
            rgba,
        })
    }
    // ANCHOR_END: render_next
}

/// The figures' view of the box (from above one corner) turned by `angle` about the vertical.
fn orbit_camera(angle: f32, size: (u32, u32)) -> Camera {
    let target = [5.0, 5.0, 4.0];
    let (radius, start) = (16.4_f32, (-13.0_f32).atan2(10.0));
    let a = start + angle;
    let eye = [
        target[0] + radius * a.cos(),
        12.0,
        target[2] + radius * a.sin(),
    ];
    Camera::look_at(eye, target, [0.0, 1.0, 0.0], 50.0, size)
}
