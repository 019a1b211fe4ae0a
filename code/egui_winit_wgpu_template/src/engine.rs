//! The render engine: owns a device, a target (a window's surface or an offscreen texture), the
//! pipeline and the scene. [`Engine`] is the state and one-frame logic, testable without a thread
//! or a window; [`spawn`] runs it on its own thread, fed by a command channel.

use gpu_context::wgpu;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;

use crate::capture::{Image, OffscreenTarget, Readback};
use crate::error::{CaptureError, FrameError};
use crate::messages::{Command, Latency};
use crate::renderer::TriangleRenderer;
use crate::scene::{Params, Scene};

/// Makes a new surface for the same window, for when the old one is lost.
pub type SurfaceFactory =
    Box<dyn FnMut() -> Result<wgpu::Surface<'static>, wgpu::CreateSurfaceError> + Send>;

/// Where frames go.
enum Target {
    Window {
        surface: wgpu::Surface<'static>,
        config: wgpu::SurfaceConfiguration,
        recreate: SurfaceFactory,
    },
    Offscreen(OffscreenTarget),
}

/// What happened when the engine tried to draw a frame.
#[derive(Debug)]
pub enum FrameOutcome {
    /// A frame was drawn (and presented, for a window).
    Drawn {
        /// Control changes that this frame is the first to show.
        latencies: Vec<Latency>,
        /// A screenshot written with this frame, if one was asked for.
        screenshot: Option<Result<PathBuf, CaptureError>>,
    },
    /// No frame this time; the reason is for logs (minimised, surface being reconfigured, …).
    Skipped(&'static str),
}

pub struct Engine {
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: TriangleRenderer,
    target: Target,
    size: [u32; 2],
    pub scene: Scene,
    /// Something changed since the last frame (a paused scene only redraws then).
    dirty: bool,
    frames: u64,
    /// When recent frames were presented, oldest first (to count frames of latency).
    recent_presents: VecDeque<Instant>,
    /// When each control change that the next frame will show was made.
    unshown_changes: Vec<Instant>,
    screenshot: Option<PathBuf>,
}

impl Engine {
    /// An engine that draws into an offscreen texture of `format` (tests, no window needed).
    pub fn offscreen(
        device: wgpu::Device,
        queue: wgpu::Queue,
        format: wgpu::TextureFormat,
        size: [u32; 2],
        params: Params,
    ) -> Self {
        let target = Target::Offscreen(OffscreenTarget::new(&device, format, size[0], size[1]));
        Self::with_target(device, queue, format, target, size, params)
    }

    /// An engine that draws into a window's surface, configured by `config`.
    pub fn for_surface(
        device: wgpu::Device,
        queue: wgpu::Queue,
        surface: wgpu::Surface<'static>,
        config: wgpu::SurfaceConfiguration,
        recreate: SurfaceFactory,
        params: Params,
    ) -> Self {
        surface.configure(&device, &config);
        let (format, size) = (config.format, [config.width, config.height]);
        let target = Target::Window {
            surface,
            config,
            recreate,
        };
        Self::with_target(device, queue, format, target, size, params)
    }

    fn with_target(
        device: wgpu::Device,
        queue: wgpu::Queue,
        format: wgpu::TextureFormat,
        target: Target,
        size: [u32; 2],
        params: Params,
    ) -> Self {
        let renderer = TriangleRenderer::new(&device, format);
        Self {
            device,
            queue,
            renderer,
            target,
            size,
            scene: Scene::new(params),
            dirty: true,
            frames: 0,
            recent_presents: VecDeque::new(),
            unshown_changes: Vec::new(),
            screenshot: None,
        }
    }

    /// The target's size in pixels; 0 × 0 while minimised.
    pub fn size(&self) -> [u32; 2] {
        self.size
    }

    /// Frames drawn so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Whether the next frame would look different from the last one.
    pub fn wants_frame(&self) -> bool {
        let visible = self.size[0] > 0 && self.size[1] > 0;
        visible && (self.dirty || !self.scene.params.paused)
    }

    // ANCHOR: handle
    /// Applies one command. Returns `false` for [`Command::Shutdown`].
    pub fn handle(&mut self, command: Command) -> bool {
        match command {
            Command::Control { change, sent_at } => {
                change.apply_to(&mut self.scene);
                self.unshown_changes.push(sent_at);
            }
            Command::Resize { width, height } => self.resize(width, height),
            Command::Key(key) => self.scene.key(key),
            Command::Pointer(p) => self.scene.pointer(p, self.size),
            Command::Redraw => {}
            Command::Screenshot(path) => self.screenshot = Some(path),
            Command::Shutdown => return false,
        }
        self.dirty = true;
        true
    }
    // ANCHOR_END: handle

    /// Moves the animation on by `dt_s` seconds.
    pub fn advance(&mut self, dt_s: f32) {
        self.scene.advance(dt_s);
    }

    fn resize(&mut self, width: u32, height: u32) {
        self.size = [width, height];
        if width == 0 || height == 0 {
            // Minimised: a surface cannot be configured to 0 × 0; keep the old one until we are
            // shown again, and draw nothing meanwhile.
            return;
        }
        match &mut self.target {
            Target::Window {
                surface, config, ..
            } => {
                config.width = width;
                config.height = height;
                surface.configure(&self.device, config);
            }
            Target::Offscreen(t) => {
                *t = OffscreenTarget::new(&self.device, self.renderer.format(), width, height);
            }
        }
    }

    // ANCHOR: draw_frame
    /// Draws one frame with the scene as it is now.
    pub fn draw_frame(&mut self) -> Result<FrameOutcome, FrameError> {
        if self.size[0] == 0 || self.size[1] == 0 {
            return Ok(FrameOutcome::Skipped("minimised"));
        }
        let uniforms = self
            .scene
            .uniforms(self.size, self.renderer.format().is_srgb());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let mut readback = None;
        let frame = match &mut self.target {
            Target::Offscreen(t) => {
                self.renderer
                    .draw(&self.queue, &mut encoder, &t.view, &uniforms);
                if self.screenshot.is_some() {
                    readback = Some(Readback::record(&self.device, &mut encoder, &t.texture)?);
                }
                None
            }
            Target::Window {
                surface,
                config,
                recreate,
            } => {
                // ANCHOR: acquire
                let frame = match surface.get_current_texture() {
                    wgpu::CurrentSurfaceTexture::Success(f)
                    | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
                    wgpu::CurrentSurfaceTexture::Timeout => {
                        return Ok(FrameOutcome::Skipped("timeout"));
                    }
                    wgpu::CurrentSurfaceTexture::Occluded => {
                        return Ok(FrameOutcome::Skipped("occluded"));
                    }
                    wgpu::CurrentSurfaceTexture::Outdated => {
                        surface.configure(&self.device, config);
                        return Ok(FrameOutcome::Skipped("surface outdated: reconfigured"));
                    }
                    wgpu::CurrentSurfaceTexture::Lost => {
                        *surface = recreate().map_err(FrameError::RecreateSurface)?;
                        surface.configure(&self.device, config);
                        return Ok(FrameOutcome::Skipped("surface lost: recreated"));
                    }
                    wgpu::CurrentSurfaceTexture::Validation => {
                        return Err(FrameError::SurfaceValidation("render window's"));
                    }
                };
                // ANCHOR_END: acquire
                let view = frame.texture.create_view(&Default::default());
                self.renderer
                    .draw(&self.queue, &mut encoder, &view, &uniforms);
                if self.screenshot.is_some() {
                    readback = Some(if config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
                        Readback::record(&self.device, &mut encoder, &frame.texture)?
                    } else {
                        // The surface cannot be copied from: draw the same frame offscreen.
                        let t = OffscreenTarget::new(
                            &self.device,
                            config.format,
                            self.size[0],
                            self.size[1],
                        );
                        self.renderer
                            .draw(&self.queue, &mut encoder, &t.view, &uniforms);
                        Readback::record(&self.device, &mut encoder, &t.texture)?
                    });
                }
                Some(frame)
            }
        };
        self.queue.submit([encoder.finish()]);
        if let Some(frame) = frame {
            self.queue.present(frame);
        }
        let presented = Instant::now();
        self.frames += 1;
        self.dirty = false;
        let latencies = self.take_latencies(presented);
        let screenshot = match (readback, self.screenshot.take()) {
            (Some(readback), Some(path)) => Some(
                readback
                    .finish(&self.device)
                    .and_then(|image| image.write_png(&path))
                    .map(|()| path),
            ),
            _ => None,
        };
        Ok(FrameOutcome::Drawn {
            latencies,
            screenshot,
        })
    }
    // ANCHOR_END: draw_frame

    /// For each change shown for the first time by the frame presented at `presented`: how many
    /// frames were presented after the change up to and including this one, and how long it took.
    fn take_latencies(&mut self, presented: Instant) -> Vec<Latency> {
        let latencies = self
            .unshown_changes
            .drain(..)
            .map(|sent_at| {
                let earlier = self
                    .recent_presents
                    .iter()
                    .filter(|&&t| t > sent_at)
                    .count();
                Latency {
                    frames: earlier as u32 + 1,
                    ms: presented.saturating_duration_since(sent_at).as_secs_f64() * 1e3,
                }
            })
            .collect();
        self.recent_presents.push_back(presented);
        if self.recent_presents.len() > 16 {
            self.recent_presents.pop_front();
        }
        latencies
    }

    /// Reads the offscreen target back (an error for a window engine: use a screenshot).
    pub fn read_pixels(&self) -> Result<Image, FrameError> {
        let Target::Offscreen(t) = &self.target else {
            return Err(FrameError::NotOffscreen);
        };
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let readback = Readback::record(&self.device, &mut encoder, &t.texture)?;
        self.queue.submit([encoder.finish()]);
        Ok(readback.finish(&self.device)?)
    }
}

mod thread;
pub use thread::{EngineOptions, Waker, spawn};
