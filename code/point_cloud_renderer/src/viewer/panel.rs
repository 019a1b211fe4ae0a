//! The viewer's widgets in the template's control panel: the point count, the variant, the
//! orbit switch, and the frame itself.

use std::time::Instant;

use egui_winit_wgpu_template::extension::{PanelExtension, SceneEdit};

use super::orbit::{POINT_COUNTS, Rendered, Viewer, ViewerSettings};
use crate::{RenderError, Variant};

// ANCHOR: panel
/// The panel extension: owns the viewer and draws one frame each time it is painted.
pub struct ViewerPanel {
    viewer: Viewer,
    settings: ViewerSettings,
    last: Option<Rendered>,
    error: Option<RenderError>,
    texture: Option<egui::TextureHandle>,
    last_paint: Option<Instant>,
}

impl ViewerPanel {
    pub fn new(viewer: Viewer) -> Self {
        Self {
            viewer,
            settings: ViewerSettings::default(),
            last: None,
            error: None,
            texture: None,
            last_paint: None,
        }
    }

    pub fn settings(&self) -> &ViewerSettings {
        &self.settings
    }

    /// The frame shown last.
    pub fn last(&self) -> Option<&Rendered> {
        self.last.as_ref()
    }

    /// Renders the next frame with the current settings and keeps it (or the error) to show.
    fn render(&mut self) {
        let now = Instant::now();
        let elapsed = self
            .last_paint
            .map_or(0.0, |t| now.duration_since(t).as_secs_f32());
        self.last_paint = Some(now);
        match self.viewer.render_next(&self.settings, elapsed) {
            Ok(frame) => {
                self.last = Some(frame);
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }
}
// ANCHOR_END: panel

impl PanelExtension for ViewerPanel {
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<SceneEdit> {
        ui.separator();
        ui.heading("Point cloud");
        ui.horizontal(|ui| {
            ui.label("points");
            for n in POINT_COUNTS {
                ui.selectable_value(&mut self.settings.points, n, count_label(n));
            }
        });
        ui.horizontal(|ui| {
            ui.label("variant");
            for v in Variant::ALL {
                ui.selectable_value(&mut self.settings.variant, v, v.label());
            }
        });
        ui.checkbox(&mut self.settings.orbit, "orbit");
        self.render();
        if let Some(e) = &self.error {
            ui.label(format!("cannot render: {e}"));
        }
        if let Some(frame) = &self.last {
            let size = [frame.width as usize, frame.height as usize];
            // RGBA8 with red in the low byte: little-endian bytes are already R, G, B, A.
            let bytes: Vec<u8> = frame.rgba.iter().flat_map(|c| c.to_le_bytes()).collect();
            let image = egui::ColorImage::from_rgba_unmultiplied(size, &bytes);
            let options = egui::TextureOptions::NEAREST;
            let texture = self.texture.get_or_insert_with(|| {
                ui.ctx().load_texture("point cloud", image.clone(), options)
            });
            texture.set(image, options);
            // As large as the panel allows, never larger than the frame, in its own proportions.
            let width = ui.available_width().min(frame.width as f32);
            let height = width * frame.height as f32 / frame.width as f32;
            ui.image((texture.id(), egui::vec2(width, height)));
            ui.label(format!(
                "frame {}: {} points, {}",
                frame.index,
                frame.points,
                frame.variant.label()
            ));
        }
        // The camera moves on: paint (and render) again as soon as possible.
        ui.ctx().request_repaint();
        None
    }

    /// Back to the start settings. The viewer changes no template scene, so a fresh scene is
    /// left as it is.
    fn reset(&mut self) {
        self.settings = ViewerSettings::default();
    }
}

fn count_label(n: usize) -> String {
    if n >= 1_000_000 {
        format!("{}M", n / 1_000_000)
    } else {
        format!("{}K", n / 1_000)
    }
}
