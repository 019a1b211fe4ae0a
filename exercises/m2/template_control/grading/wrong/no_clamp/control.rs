//! Your control: the widget in the panel (main thread) and what its value does to the scene
//! (engine thread). See the README for what each function must do.

use egui_winit_wgpu_template::scene::{START_SCALE, Scene};

use crate::{Params, SIZE_LABEL, SIZE_RANGE};

/// Adds the "Size (%)" slider for `params.size_percent` to the panel, and returns the slider's
/// `Response` (the panel sends an edit when `response.changed()`).
pub fn control_ui(ui: &mut egui::Ui, params: &mut Params) -> egui::Response {
    // The slider clamps what the user drags or types to its range, so the panel never holds a
    // size the engine would have to correct.
    ui.add(egui::Slider::new(&mut params.size_percent, SIZE_RANGE).text(SIZE_LABEL))
}

/// Sets the scene's triangle size from `params` (100 % is `START_SCALE`). Values outside
/// `SIZE_RANGE` are clamped to its nearest end; NaN counts as 100 %.
pub fn apply(params: &Params, scene: &mut Scene) {
    // Params can also be made in code, bypassing the slider: check again on the engine's side.
    // `clamp` passes NaN through, and a NaN radius would make the triangle vanish.
    // Wrong on purpose: trusts the slider's range, so a NaN or an out-of-range size made in
    // code reaches the scene.
    let percent = params.size_percent;
    // Only the size: the mouse's offset, the keys' spin and the panel's colour stay as they are.
    scene.scale = START_SCALE * percent / 100.0;
}
