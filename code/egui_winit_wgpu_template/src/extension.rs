//! The template's extension point: a control added to the panel without editing the template.
//!
//! The panel draws the extension's widgets under its own and, when one changes, sends the engine
//! a [`SceneEdit`] inside [`Control::Edit`](crate::messages::Control::Edit); the engine runs the
//! edit on its scene before the next frame. Everything else — channels, latency, Reset, the
//! headless and window runs — works as for the template's own controls.

use std::fmt;
use std::sync::Arc;

use crate::scene::Scene;

// ANCHOR: scene_edit
// ANCHOR: scene_edit_type
/// A change to the scene, made in the panel and run on the engine's thread. The template cannot
/// know an extension's own parameter types, so the message is a function that carries its data
/// with it (copied in, so the two threads still share nothing).
#[derive(Clone)]
pub struct SceneEdit {
    what: String,
    edit: Arc<dyn Fn(&mut Scene) + Send + Sync>,
}

impl SceneEdit {
    /// `what` describes the change (for logs and `Debug`), e.g. "size 50 %".
    pub fn new(what: impl Into<String>, edit: impl Fn(&mut Scene) + Send + Sync + 'static) -> Self {
        Self {
            what: what.into(),
            edit: Arc::new(edit),
        }
    }

    pub fn apply(&self, scene: &mut Scene) {
        (self.edit)(scene);
    }

    pub fn what(&self) -> &str {
        &self.what
    }
}
// ANCHOR_END: scene_edit_type

impl fmt::Debug for SceneEdit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SceneEdit").field(&self.what).finish()
    }
}

/// Two functions cannot be compared by what they do: an edit equals itself and its clones only.
/// (To test an edit, apply it to a scene and look at the scene.)
impl PartialEq for SceneEdit {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.edit, &other.edit)
    }
}

// ANCHOR: panel_extension
/// Widgets added to the control panel from outside the template.
pub trait PanelExtension {
    /// Draws the widgets for one frame (below the template's sliders); returns the edit to send
    /// when the user changed something this frame, `None` otherwise.
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<SceneEdit>;

    /// The panel's Reset button was pressed: show the start values again. The engine goes back
    /// to a fresh `Scene`, so the start values must leave a fresh scene as it is.
    fn reset(&mut self);
}
// ANCHOR_END: panel_extension
// ANCHOR_END: scene_edit

/// The template on its own: no extra widgets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoExtension;

impl PanelExtension for NoExtension {
    fn ui(&mut self, _: &mut egui::Ui) -> Option<SceneEdit> {
        None
    }

    fn reset(&mut self) {}
}

/// So the app can hold any extension chosen at run time.
impl<T: PanelExtension + ?Sized> PanelExtension for Box<T> {
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<SceneEdit> {
        (**self).ui(ui)
    }

    fn reset(&mut self) {
        (**self).reset();
    }
}
