//! The control panel's window on the main thread: winit events go into egui (egui-winit), egui's
//! output is drawn with wgpu (egui-wgpu).

use gpu_context::wgpu;
use std::path::Path;
use std::sync::Arc;

use winit::event::WindowEvent;
use winit::window::Window;

use crate::capture::Readback;
use crate::error::{CaptureError, FrameError};
use crate::extension::PanelExtension;
use crate::panel::ControlPanel;
use crate::panel_frame::{Acquire, PanelFrame, PanelSurface, classify, run_panel_frame};

pub struct PanelWindow {
    pub window: Arc<Window>,
    egui: egui_winit::State,
    surface: WgpuPanelSurface,
}

/// The panel's wgpu side: its surface, device and queue, and egui-wgpu's renderer.
struct WgpuPanelSurface {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: egui_wgpu::Renderer,
}

impl PanelWindow {
    /// `config.present_mode` should come from [`panel_present_mode`](crate::panel_frame::panel_present_mode).
    pub fn new(
        window: Arc<Window>,
        surface: wgpu::Surface<'static>,
        config: wgpu::SurfaceConfiguration,
        device: wgpu::Device,
        queue: wgpu::Queue,
    ) -> Self {
        surface.configure(&device, &config);
        let ctx = egui::Context::default();
        let egui = egui_winit::State::new(
            ctx,
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        let renderer = egui_wgpu::Renderer::new(&device, config.format, Default::default());
        Self {
            window: window.clone(),
            egui,
            surface: WgpuPanelSurface {
                window,
                surface,
                config,
                device,
                queue,
                renderer,
            },
        }
    }

    // ANCHOR: on_event
    /// Gives a window event to egui. Returns whether the panel must be drawn again.
    pub fn on_event(&mut self, event: &WindowEvent) -> bool {
        match event {
            // egui-winit answers "repaint" to RedrawRequested itself: passing it on would
            // redraw forever at 100 % CPU. Drawing is done by `paint` instead.
            WindowEvent::RedrawRequested => false,
            WindowEvent::Resized(size) => {
                if size.width > 0 && size.height > 0 {
                    let s = &mut self.surface;
                    s.config.width = size.width;
                    s.config.height = size.height;
                    s.surface.configure(&s.device, &s.config);
                }
                let _ = self.egui.on_window_event(&self.window, event);
                true
            }
            _ => self.egui.on_window_event(&self.window, event).repaint,
        }
    }
    // ANCHOR_END: on_event

    // ANCHOR: paint
    /// Runs the panel's UI for one frame and draws it if the surface has an image free (see
    /// [`run_panel_frame`]). With `screenshot`, a drawn frame is also saved as PNG.
    pub fn paint<X: PanelExtension>(
        &mut self,
        panel: &mut ControlPanel<X>,
        screenshot: Option<&Path>,
    ) -> Result<PanelFrame, FrameError> {
        let input = self.egui.take_egui_input(&self.window);
        let ctx = self.egui.egui_ctx().clone();
        let mut frame = run_panel_frame(&ctx, input, panel, &mut self.surface, screenshot)?;
        let platform = std::mem::take(&mut frame.platform_output);
        self.egui.handle_platform_output(&self.window, platform);
        Ok(frame)
    }
    // ANCHOR_END: paint
}

impl PanelSurface for WgpuPanelSurface {
    type Frame = wgpu::SurfaceTexture;

    fn set_textures(&mut self, delta: &mut egui::TexturesDelta) {
        for (id, deltas) in delta.set.drain() {
            for d in deltas {
                self.renderer
                    .update_texture(&self.device, &self.queue, id, &d);
            }
        }
    }

    fn free_textures(&mut self, delta: &mut egui::TexturesDelta) {
        for id in delta.free.drain() {
            self.renderer.free_texture(&id);
        }
    }

    fn acquire(&mut self) -> Result<Acquire<wgpu::SurfaceTexture>, FrameError> {
        let size = self.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Ok(Acquire::Hidden); // minimised
        }
        classify(self.surface.get_current_texture())
    }

    fn reconfigure(&mut self) {
        self.surface.configure(&self.device, &self.config);
    }

    fn draw(
        &mut self,
        frame: wgpu::SurfaceTexture,
        jobs: &[egui::ClippedPrimitive],
        pixels_per_point: f32,
        screenshot: Option<&Path>,
    ) -> Result<(), FrameError> {
        let view = frame.texture.create_view(&Default::default());
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point,
        };
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let mut buffers =
            self.renderer
                .update_buffers(&self.device, &self.queue, &mut encoder, jobs, &screen);
        {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui pass"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            // egui-wgpu wants a pass that does not borrow the encoder.
            let mut pass = pass.forget_lifetime();
            self.renderer.render(&mut pass, jobs, &screen);
        }
        let readback = match screenshot {
            Some(_) if self.config.usage.contains(wgpu::TextureUsages::COPY_SRC) => Some(
                Readback::record(&self.device, &mut encoder, &frame.texture)?,
            ),
            Some(_) => return Err(CaptureError::NotCopyable.into()),
            None => None,
        };
        buffers.push(encoder.finish());
        self.queue.submit(buffers);
        self.queue.present(frame);
        if let (Some(readback), Some(path)) = (readback, screenshot) {
            readback.finish(&self.device)?.write_png(path)?;
        }
        Ok(())
    }
}
