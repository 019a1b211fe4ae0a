//! Your control: the widget in the panel (main thread) and what its value does to the scene
//! (engine thread). See the README for what each function must do.

use egui_winit_wgpu_template::scene::Scene;

use crate::Params;

/// Adds the "Size (%)" slider for `params.size_percent` to the panel, and returns the slider's
/// `Response` (the panel sends an edit when `response.changed()`).
pub fn control_ui(_ui: &mut egui::Ui, _params: &mut Params) -> egui::Response {
    todo!("a slider over SIZE_RANGE, labelled SIZE_LABEL")
}

/// Sets the scene's triangle size from `params` (100 % is `START_SCALE`). Values outside
/// `SIZE_RANGE` are clamped to its nearest end; NaN counts as 100 %.
pub fn apply(_params: &Params, _scene: &mut Scene) {
    todo!("scene.scale from params.size_percent")
}
