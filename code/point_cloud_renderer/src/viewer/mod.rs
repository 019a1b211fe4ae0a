//! A live view of the renderer inside module 2's egui + winit + wgpu template.
//!
//! The template owns the windows, the event loop and egui; this module adds a panel through the
//! template's extension point. Each time the panel is painted it renders one frame from an
//! orbiting camera, reads it back and shows it as an egui texture.
//!
//! - [`orbit`]: the renderer, its settings and the orbiting camera (no egui);
//! - [`panel`]: the widgets (no window: testable with egui_kittest).

pub mod orbit;
pub mod panel;

pub use orbit::{Rendered, Viewer, ViewerSettings};
pub use panel::ViewerPanel;
