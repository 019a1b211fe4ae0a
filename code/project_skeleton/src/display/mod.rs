//! The display stage, inside module 2's template: the template owns the windows, the event loop,
//! egui and the render engine; this crate adds its panel widgets through the template's
//! extension point ([`PanelExtension`](egui_winit_wgpu_template::extension::PanelExtension)).
//!
//! - [`tracker`]: a fixed-timestep simulation that follows the frames' mean level;
//! - [`view`]: the stage statistics the panel shows, as plain data (no window);
//! - [`panel`]: the widgets: the processed frame, its histogram, the statistics.

pub mod panel;
pub mod tracker;
pub mod view;

pub use panel::{PipelinePanel, ReportSlot};
