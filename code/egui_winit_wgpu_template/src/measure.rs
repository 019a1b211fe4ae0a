//! The `--measure` run: while the panel redraws every frame (as it does while someone drags a
//! slider), change the colour through the panel at a steady pace, and record the render window's
//! frame rate and how long each change takes to reach a presented frame.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bench_harness::{Csv, Sidecar, Stats};
use gpu_context::AdapterReport;

use crate::error::MeasureError;
use crate::messages::{FrameStats, Latency};
use crate::panel::PRESETS;

/// Ignore the first second: shader compilation and the first surface frames are not typical.
const WARM_UP: Duration = Duration::from_secs(1);
/// One colour change every this often: slow enough that changes do not overlap.
const CHANGE_EVERY: Duration = Duration::from_millis(200);

pub struct Measurement {
    start: Instant,
    end: Instant,
    next_change: Instant,
    changes: usize,
    fps: Vec<FrameStats>,
    latencies: Vec<Latency>,
    panel_frames: u64,
}

impl Measurement {
    pub fn new(duration: Duration) -> Self {
        let start = Instant::now() + WARM_UP;
        Self {
            start,
            end: start + duration,
            next_change: start,
            changes: 0,
            fps: Vec::new(),
            latencies: Vec::new(),
            panel_frames: 0,
        }
    }

    /// When the event loop should wake up next for this measurement.
    pub fn next_wake(&self) -> Instant {
        self.next_change.min(self.end)
    }

    pub fn done(&self, now: Instant) -> bool {
        now >= self.end
    }

    /// The colour to set now, if a change is due.
    pub fn due_change(&mut self, now: Instant) -> Option<[u8; 3]> {
        if now < self.next_change || now >= self.end {
            return None;
        }
        self.next_change += CHANGE_EVERY;
        self.changes += 1;
        Some(PRESETS[self.changes % PRESETS.len()].1)
    }

    pub fn record_frames(&mut self, stats: FrameStats) {
        if Instant::now() >= self.start {
            self.fps.push(stats);
        }
    }

    pub fn record_latency(&mut self, latency: Latency) {
        self.latencies.push(latency);
    }

    pub fn record_panel_frame(&mut self) {
        if Instant::now() >= self.start {
            self.panel_frames += 1;
        }
    }

    /// Writes `template_latency.csv`, `template_fps.csv`, `template_measurements.csv` and the
    /// sidecar `template_measurements.json` (with `notes` among its notes) into `dir`; returns the
    /// paths written.
    pub fn write(
        &self,
        dir: &Path,
        adapter: &AdapterReport,
        size: [u32; 2],
        notes: &[String],
    ) -> Result<Vec<PathBuf>, MeasureError> {
        if self.fps.is_empty() || self.latencies.is_empty() {
            return Err(MeasureError::NoSamples {
                fps_reports: self.fps.len(),
                latencies: self.latencies.len(),
            });
        }
        let mut latency_csv = Csv::new(&["change", "frames", "ms"]);
        for (i, l) in self.latencies.iter().enumerate() {
            latency_csv.row(&[i.to_string(), l.frames.to_string(), format!("{:.3}", l.ms)]);
        }
        let mut fps_csv = Csv::new(&["report", "fps", "frame_ms"]);
        for (i, f) in self.fps.iter().enumerate() {
            fps_csv.row(&[
                i.to_string(),
                format!("{:.2}", f.fps),
                format!("{:.3}", f.frame_ms),
            ]);
        }
        let seconds = (self.end - self.start).as_secs_f64();
        // Stats works in any unit; it is named for seconds because most benchmarks time things.
        let stats =
            |what, v: Vec<f64>| Stats::from_seconds(&v).ok_or(MeasureError::NotANumber { what });
        let fps = stats(
            "frame rate",
            self.fps.iter().map(|f| f64::from(f.fps)).collect(),
        )?;
        let ms = stats("latency", self.latencies.iter().map(|l| l.ms).collect())?;
        let frames = stats(
            "latency in frames",
            self.latencies.iter().map(|l| f64::from(l.frames)).collect(),
        )?;
        let panel_fps = self.panel_frames as f64 / seconds;
        let panel = stats("panel frame rate", vec![panel_fps])?;
        let mut summary = Csv::new(&[
            "metric", "median", "p10", "p90", "min", "max", "samples", "unit",
        ]);
        for (name, s, unit) in [
            ("render_fps", &fps, "frames/s"),
            ("latency_ms", &ms, "ms"),
            ("latency_frames", &frames, "frames"),
            ("panel_fps", &panel, "frames/s"),
        ] {
            let mut cells = vec![name.to_owned()];
            cells.extend([s.median, s.p10, s.p90, s.min, s.max].map(|v| format!("{v:.2}")));
            cells.push(s.samples.to_string());
            cells.push(unit.to_owned());
            summary.row(&cells);
        }
        let files = [
            ("template_latency.csv", latency_csv),
            ("template_fps.csv", fps_csv),
            ("template_measurements.csv", summary),
        ];
        let mut written = Vec::new();
        for (name, csv) in &files {
            let path = dir.join(name);
            csv.write(&path).map_err(write_error(&path))?;
            written.push(path);
        }
        let table = markdown_table(&fps, &ms, &frames, panel_fps, size, &adapter.name);
        let path = dir.join("template_measurements.md");
        std::fs::write(&path, table).map_err(write_error(&path))?;
        written.push(path);
        let mut sidecar = Sidecar::new(
            "template_measurements",
            "egui_winit_wgpu_template --measure: render-window FPS while the panel redraws every \
             frame, and latency from a colour change in the panel to the first presented frame \
             showing it",
        );
        sidecar.set_adapter(adapter);
        sidecar.files = written
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        sidecar.notes.push(format!(
            "render window {} x {}; {seconds:.1} s measured after {} s warm-up; one colour change every {} ms; \
             latency is measured until queue.present returns (the display may show the frame one refresh later)",
            size[0],
            size[1],
            WARM_UP.as_secs(),
            CHANGE_EVERY.as_millis()
        ));
        sidecar.notes.push(format!("display: {}", display_name()));
        sidecar.notes.extend(notes.iter().cloned());
        if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
            // Other programs on the machine compete for the CPU that lavapipe renders with.
            let load: Vec<&str> = load.split_whitespace().take(3).collect();
            sidecar.notes.push(format!(
                "load average (1, 5, 15 min) at the end: {}",
                load.join(", ")
            ));
        }
        let build = if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        };
        sidecar.notes.push(format!("{build} build"));
        let path = dir.join("template_measurements.json");
        sidecar.write(&path).map_err(write_error(&path))?;
        written.push(path);
        Ok(written)
    }
}

fn write_error(path: &Path) -> impl FnOnce(std::io::Error) -> MeasureError {
    let path = path.to_path_buf();
    move |source| MeasureError::Write { path, source }
}

/// The X display (e.g. an Xvfb server) or the Wayland display the run used.
pub fn display_name() -> String {
    match (std::env::var("DISPLAY"), std::env::var("WAYLAND_DISPLAY")) {
        // Set by `xvfb::Xvfb::configure`: this display is a virtual one, not a screen.
        (Ok(d), _) if std::env::var_os("TEMPLATE_DISPLAY_KIND").is_some() => {
            format!("Xvfb (X11 {d})")
        }
        (Ok(d), _) => format!("X11 {d}"),
        (_, Ok(w)) => format!("Wayland {w}"),
        _ => "unknown".into(),
    }
}

/// The summary as a Markdown table, for the book to include.
fn markdown_table(
    fps: &Stats,
    ms: &Stats,
    frames: &Stats,
    panel_fps: f64,
    size: [u32; 2],
    adapter: &str,
) -> String {
    let machine = bench_harness::MachineInfo::detect();
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let mut t = String::from(
        "| measure | median | p10 | p90 | samples |\n| --- | --- | --- | --- | --- |\n",
    );
    t.push_str(&format!(
        "| render window FPS ({}×{}) | {:.1} | {:.1} | {:.1} | {} |\n",
        size[0], size[1], fps.median, fps.p10, fps.p90, fps.samples
    ));
    t.push_str(&format!(
        "| change → presented frame, ms | {:.1} | {:.1} | {:.1} | {} |\n",
        ms.median, ms.p10, ms.p90, ms.samples
    ));
    t.push_str(&format!(
        "| change → presented frame, frames | {:.0} | {:.0} | {:.0} | {} |\n",
        frames.median, frames.p10, frames.p90, frames.samples
    ));
    t.push_str(&format!(
        "| panel FPS (redrawing every frame) | {panel_fps:.1} | | | 1 |\n"
    ));
    t.push_str(&format!(
        "\n*Measured by `egui_winit_wgpu_template --measure` ({build} build) on {}, {adapter}, \
         under {}; FPS samples are 250 ms windows. Data: `figures/template_*.csv`; machine, \
         commit and load: `figures/template_measurements.json`.*\n",
        machine.summary(),
        display_name()
    ));
    t
}
