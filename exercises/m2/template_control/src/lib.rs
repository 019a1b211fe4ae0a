//! Exercise: a new control for module 2's application template — a "Size (%)" slider in the
//! control panel that changes how large the render engine draws the triangle.
//!
//! This file is given (the grader uses the staff copy): the control's parameters, its label and
//! range, and the wiring of your two functions into the template through its extension point
//! (`egui_winit_wgpu_template::extension`). Your work: `control.rs`.

mod control;

pub use control::{apply, control_ui};

use std::ops::RangeInclusive;
use std::process::ExitCode;

use crossbeam_channel::{Receiver, Sender};
use egui_winit_wgpu_template::extension::{PanelExtension, SceneEdit};
use egui_winit_wgpu_template::messages::{Command, Status};
use egui_winit_wgpu_template::panel::ControlPanel;
use egui_winit_wgpu_template::scene;

/// The slider's text: people read it, and tests find the slider by it.
pub const SIZE_LABEL: &str = "Size (%)";

/// The slider's range, in percent of the triangle's start size ([`scene::START_SCALE`]).
pub const SIZE_RANGE: RangeInclusive<f32> = 10.0..=200.0;

/// What your control edits: the panel keeps one copy, and each change sends a copy to the engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// The triangle's size in percent of its start size: 100 draws it as the template does.
    pub size_percent: f32,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            size_percent: 100.0,
        }
    }
}

/// Your control as a panel extension: the panel calls `ui` every frame, `reset` on Reset.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SizeControl {
    pub params: Params,
}

impl PanelExtension for SizeControl {
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<SceneEdit> {
        let response = control_ui(ui, &mut self.params);
        response.changed().then(|| edit(self.params))
    }

    fn reset(&mut self) {
        self.params = Params::default();
    }
}

/// The message that carries `params` to the engine: there, on its thread, it runs [`apply`].
pub fn edit(params: Params) -> SceneEdit {
    SceneEdit::new(format!("size {} %", params.size_percent), move |scene| {
        apply(&params, scene)
    })
}

/// The template's control panel with your control in it, talking over these channel ends.
pub fn control_panel(
    start: scene::Params,
    commands: Sender<Command>,
    status: Receiver<Status>,
) -> ControlPanel<SizeControl> {
    ControlPanel::with_extension(start, SizeControl::default(), commands, status)
}

/// The template's program — two windows, the engine thread — with your control in the panel.
/// Takes the template's flags (`--help` lists them).
pub fn main_with_args(args: Vec<String>) -> ExitCode {
    egui_winit_wgpu_template::main_with_extension(args, Box::new(SizeControl::default()))
}
