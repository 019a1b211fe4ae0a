//! The control panel's user interface: an immediate-mode egui function over plain state. It knows
//! nothing of windows or GPUs (so egui_kittest can drive it in a test); it talks to the engine
//! only through its two channel ends.

use std::path::PathBuf;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, TryRecvError};

use crate::extension::{NoExtension, PanelExtension};
use crate::messages::{Command, Control, FrameStats, Latency, Status};
use crate::scene::Params;

/// Colours one click away, as (button label, sRGB).
pub const PRESETS: [(&str, [u8; 3]); 4] = [
    ("Orange", [255, 136, 0]),
    ("Red", [220, 40, 40]),
    ("Green", [40, 200, 80]),
    ("Blue", [40, 110, 230]),
];

/// What the panel last heard from the engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    pub frames: Option<FrameStats>,
    pub latency: Option<Latency>,
    pub error: Option<String>,
    pub screenshot: Option<PathBuf>,
    /// The engine's thread has ended (its channel is closed).
    pub engine_gone: bool,
}

/// The panel's state. `X` adds widgets from outside the template (see [`crate::extension`]).
pub struct ControlPanel<X: PanelExtension = NoExtension> {
    /// The values the widgets show and edit.
    pub params: Params,
    initial: Params,
    /// The added widgets' own state.
    pub extension: X,
    commands: Sender<Command>,
    status: Receiver<Status>,
    pub shown: Shown,
}

impl ControlPanel {
    pub fn new(params: Params, commands: Sender<Command>, status: Receiver<Status>) -> Self {
        Self::with_extension(params, NoExtension, commands, status)
    }
}

impl<X: PanelExtension> ControlPanel<X> {
    /// A panel that also draws `extension`'s widgets and sends its edits.
    pub fn with_extension(
        params: Params,
        extension: X,
        commands: Sender<Command>,
        status: Receiver<Status>,
    ) -> Self {
        Self {
            params,
            initial: params,
            extension,
            commands,
            status,
            shown: Shown::default(),
        }
    }

    // ANCHOR: send
    /// Sends a change to the engine, stamped with the time it was made. Never blocks: the command
    /// channel is unbounded, and a closed channel (engine gone) is shown, not panicked on.
    pub fn send(&mut self, change: Control) {
        let command = Command::Control {
            change,
            sent_at: Instant::now(),
        };
        if self.commands.send(command).is_err() {
            self.shown.engine_gone = true;
        }
    }
    // ANCHOR_END: send

    /// Sets the colour as the colour widgets do (used by presets and by the measurement run).
    pub fn set_colour(&mut self, colour: [u8; 3]) {
        self.params.colour = colour;
        self.send(Control::Colour(colour));
    }

    // ANCHOR: drain
    /// Takes every status message waiting on the channel, updates what the panel shows, and
    /// returns them (the app reacts to some: a finished headless run, a measurement).
    pub fn drain_status(&mut self) -> Vec<Status> {
        let mut received = Vec::new();
        loop {
            match self.status.try_recv() {
                Ok(status) => {
                    match &status {
                        Status::Frames(stats) => self.shown.frames = Some(*stats),
                        Status::Latency(latency) => self.shown.latency = Some(*latency),
                        Status::Error(e) => self.shown.error = Some(e.clone()),
                        Status::Screenshot(path) => self.shown.screenshot = Some(path.clone()),
                        Status::Finished { .. } => {}
                    }
                    received.push(status);
                }
                Err(TryRecvError::Empty) => return received,
                Err(TryRecvError::Disconnected) => {
                    self.shown.engine_gone = true;
                    return received;
                }
            }
        }
    }
    // ANCHOR_END: drain

    // ANCHOR: ui
    /// Draws the panel for one frame and sends a command for each widget the user changed.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Triangle");
        ui.horizontal(|ui| {
            ui.label("Colour");
            if ui.color_edit_button_srgb(&mut self.params.colour).changed() {
                self.send(Control::Colour(self.params.colour));
            }
        });
        self.presets_ui(ui);
        let speed =
            egui::Slider::new(&mut self.params.speed_deg_per_s, -720.0..=720.0).text("Speed (°/s)");
        if ui.add(speed).changed() {
            self.send(Control::SpeedDegPerS(self.params.speed_deg_per_s));
        }
        let rotation =
            egui::Slider::new(&mut self.params.rotation_deg, -180.0..=180.0).text("Rotation (°)");
        if ui.add(rotation).changed() {
            self.send(Control::RotationDeg(self.params.rotation_deg));
        }
        if let Some(edit) = self.extension.ui(ui) {
            self.send(Control::Edit(edit));
        }
        ui.horizontal(|ui| {
            if ui.checkbox(&mut self.params.paused, "Paused").changed() {
                self.send(Control::Paused(self.params.paused));
            }
            if ui.button("Reset").clicked() {
                self.params = self.initial;
                self.extension.reset();
                self.send(Control::Reset);
            }
        });
        ui.separator();
        self.status_ui(ui);
    }
    // ANCHOR_END: ui

    /// One button per preset colour.
    fn presets_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            for (name, colour) in PRESETS {
                if ui.button(name).clicked() {
                    self.set_colour(colour);
                }
            }
        });
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        ui.heading("Render engine");
        match &self.shown.frames {
            Some(f) => {
                ui.label(format!("FPS: {:.1}", f.fps));
                ui.label(format!("Frame time: {:.2} ms", f.frame_ms));
                ui.label(format!("Frames: {}", f.frames));
                ui.label(format!("Size: {} × {}", f.width, f.height));
            }
            None => {
                ui.label("Waiting for the first frame…");
            }
        }
        if let Some(l) = &self.shown.latency {
            let unit = if l.frames == 1 { "frame" } else { "frames" };
            ui.label(format!(
                "Last change shown after {} {unit}, {:.1} ms",
                l.frames, l.ms
            ));
        }
        if let Some(path) = &self.shown.screenshot {
            ui.label(format!("Screenshot: {}", path.display()));
        }
        if self.shown.engine_gone {
            ui.colored_label(egui::Color32::LIGHT_RED, "The render engine has stopped.");
        }
        if let Some(e) = &self.shown.error {
            ui.colored_label(egui::Color32::LIGHT_RED, format!("Error: {e}"));
        }
    }
}
