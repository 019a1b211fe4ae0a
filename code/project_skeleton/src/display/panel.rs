//! The pipeline's widgets in the template's control panel. The panel is painted on the event
//! loop's thread, which must never wait: results are taken with `try_recv` only.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use egui_winit_wgpu_template::extension::{PanelExtension, SceneEdit};

use crate::display::tracker::Tracker;
use crate::display::view::StageView;
use crate::pipeline::clock::Clock;
use crate::pipeline::process::Processed;
use crate::pipeline::run::{LiveStats, Pipeline, PipelineError, PipelineReport};

/// Where the panel leaves the pipeline's report when it shuts the pipeline down (the template
/// owns the panel and drops it when its windows close; the caller reads the report after).
pub type ReportSlot = Arc<Mutex<Option<Result<PipelineReport, PipelineError>>>>;

/// Size of the histogram plot, in points.
const PLOT: egui::Vec2 = egui::vec2(256.0, 48.0);

// ANCHOR: panel
/// The display stage: owns the pipeline, shows its newest result and its statistics.
pub struct PipelinePanel {
    pipeline: Option<Pipeline>,
    live: LiveStats,
    clock: Arc<dyn Clock>,
    view: StageView,
    tracker: Tracker,
    latest: Option<Processed>,
    texture: Option<egui::TextureHandle>,
    last_paint: Option<Duration>,
    report: ReportSlot,
}

impl PipelinePanel {
    pub fn new(pipeline: Pipeline, clock: Arc<dyn Clock>, report: ReportSlot) -> Self {
        Self {
            live: pipeline.live_stats(),
            pipeline: Some(pipeline),
            clock,
            view: StageView::new(),
            tracker: Tracker::new(),
            latest: None,
            texture: None,
            last_paint: None,
            report,
        }
    }

    /// Takes every result that is ready, keeping the newest to show. Never waits.
    pub fn take_results(&mut self) {
        let Some(pipeline) = self.pipeline.as_mut() else {
            return;
        };
        let now = self.clock.now();
        while let Some(result) = pipeline.try_recv() {
            self.view.received(&result, now);
            self.tracker.follow(result.mean_level());
            self.latest = Some(result);
        }
    }

    pub fn view(&self) -> &StageView {
        &self.view
    }

    pub fn latest(&self) -> Option<&Processed> {
        self.latest.as_ref()
    }

    /// The statistics as the panel shows them.
    pub fn lines(&self) -> Vec<String> {
        self.view.lines(&self.live)
    }
}
// ANCHOR_END: panel

impl PanelExtension for PipelinePanel {
    // ANCHOR: ui
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<SceneEdit> {
        self.take_results();
        let now = self.clock.now();
        let elapsed = self
            .last_paint
            .map_or(Duration::ZERO, |t| now.saturating_sub(t));
        self.last_paint = Some(now);
        self.view.painted(now);
        let tracked = self.tracker.frame(elapsed);

        ui.separator();
        ui.heading("Pipeline");
        if let Some(result) = &self.latest {
            let frame = &result.frame;
            let size = [frame.width as usize, frame.height as usize];
            let image = egui::ColorImage::from_gray(size, &frame.pixels);
            match &mut self.texture {
                Some(texture) => texture.set(image, egui::TextureOptions::NEAREST),
                None => {
                    let texture = ui.ctx().load_texture(
                        "processed frame",
                        image,
                        egui::TextureOptions::NEAREST,
                    );
                    self.texture = Some(texture);
                }
            }
            if let Some(texture) = &self.texture {
                let shown = egui::vec2(frame.width as f32, frame.height as f32) * 1.5;
                ui.image((texture.id(), shown));
            }
            ui.label(format!("frame {}", frame.index));
            histogram_plot(ui, &result.histogram, tracked);
        } else {
            ui.label("waiting for the first result…");
        }
        for line in self.lines() {
            ui.label(line);
        }
        // The pipeline runs on: paint again as soon as possible to show its next result.
        ui.ctx().request_repaint();
        None
    }
    // ANCHOR_END: ui

    fn reset(&mut self) {
        self.tracker = Tracker::new();
    }
}

/// Bars for the 256 bins, and the tracker's mean level as a vertical line.
fn histogram_plot(ui: &mut egui::Ui, histogram: &[u32; 256], tracked_level: f64) {
    let (rect, _) = ui.allocate_exact_size(PLOT, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, egui::Color32::from_gray(24));
    let max = histogram.iter().copied().max().unwrap_or(0).max(1) as f32;
    let bar = rect.width() / 256.0;
    for (level, &count) in histogram.iter().enumerate() {
        let h = rect.height() * count as f32 / max;
        let x = rect.left() + level as f32 * bar;
        let r = egui::Rect::from_min_max(
            egui::pos2(x, rect.bottom() - h),
            egui::pos2(x + bar, rect.bottom()),
        );
        painter.rect_filled(r, 0.0, egui::Color32::LIGHT_GRAY);
    }
    let x = rect.left() + tracked_level as f32 * bar;
    painter.vline(
        x,
        rect.y_range(),
        egui::Stroke::new(1.5, egui::Color32::ORANGE),
    );
}

impl Drop for PipelinePanel {
    /// The template drops its panel when the windows close: shut the pipeline down with it,
    /// draining what is left, and leave the report for the caller.
    fn drop(&mut self) {
        if let Some(pipeline) = self.pipeline.take() {
            let report = pipeline.shutdown(|_| {});
            if let Ok(mut slot) = self.report.lock() {
                *slot = Some(report);
            }
        }
    }
}
