//! The control panel's window on the main thread: winit events go into egui (egui-winit), egui's
//! output is drawn with wgpu (egui-wgpu).

use gpu_context::wgpu;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use winit::event::WindowEvent;
use winit::window::Window;

use crate::capture::Readback;
use crate::extension::PanelExtension;
use crate::panel::ControlPanel;

pub struct PanelWindow {
    pub window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    device: wgpu::Device,
    queue: wgpu::Queue,
    egui: egui_winit::State,
    renderer: egui_wgpu::Renderer,
}

impl PanelWindow {
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
            window,
            surface,
            config,
            device,
            queue,
            egui,
            renderer,
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
                    self.config.width = size.width;
                    self.config.height = size.height;
                    self.surface.configure(&self.device, &self.config);
                }
                let _ = self.egui.on_window_event(&self.window, event);
                true
            }
            _ => self.egui.on_window_event(&self.window, event).repaint,
        }
    }
    // ANCHOR_END: on_event

    // ANCHOR: paint
    /// Runs the panel's UI for one frame and draws it. Returns when egui wants the next frame
    /// (`None`: only when an event arrives). With `screenshot`, the frame is also saved as PNG.
    pub fn paint<X: PanelExtension>(
        &mut self,
        panel: &mut ControlPanel<X>,
        screenshot: Option<&Path>,
    ) -> Result<Option<Duration>, String> {
        let input = self.egui.take_egui_input(&self.window);
        let ctx = self.egui.egui_ctx().clone();
        let output = ctx.run_ui(input, |ui| {
            egui::CentralPanel::default().show(ui, |ui| panel.ui(ui));
        });
        self.egui
            .handle_platform_output(&self.window, output.platform_output);
        let repaint = output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map(|v| v.repaint_delay)
            .filter(|d| *d < Duration::from_secs(3600));
        let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
        // Texture changes must be applied (or explicitly dropped) every frame, drawn or not.
        let mut textures = output.textures_delta;
        for (id, deltas) in textures.set.drain() {
            for delta in deltas {
                self.renderer
                    .update_texture(&self.device, &self.queue, id, &delta);
            }
        }
        let result = self.draw(&jobs, output.pixels_per_point, screenshot);
        for id in textures.free.drain() {
            self.renderer.free_texture(&id);
        }
        result.map(|()| repaint)
    }
    // ANCHOR_END: paint

    fn draw(
        &mut self,
        jobs: &[egui::ClippedPrimitive],
        pixels_per_point: f32,
        screenshot: Option<&Path>,
    ) -> Result<(), String> {
        let size = self.window.inner_size();
        if size.width == 0 || size.height == 0 {
            return Ok(()); // minimised
        }
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f)
            | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.device, &self.config);
                self.window.request_redraw();
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                return Ok(());
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                return Err("the panel's surface reported a validation error".into());
            }
        };
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
            Some(_) => return Err("this surface cannot be copied from (no COPY_SRC)".into()),
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
