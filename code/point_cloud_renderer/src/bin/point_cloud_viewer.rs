//! `point_cloud_viewer`: the renderer live in the template's windows. Takes the template's flags
//! (`--help`); the point count, the variant and the orbit are chosen in the control panel.

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use egui_winit_wgpu_template::error::chain;
use egui_winit_wgpu_template::{print_written, run_app, run_with};
use point_cloud_renderer::viewer::{Viewer, ViewerPanel};

/// The frame the panel shows, in pixels: small, so a software adapter keeps up.
const FRAME: (u32, u32) = (320, 180);

// ANCHOR: main
fn main() -> ExitCode {
    run_app(
        std::env::args().skip(1),
        |config| {
            let viewer = Viewer::new(FRAME)
                .map_err(|e| format!("cannot start the point-cloud renderer: {}", chain(&e)))?;
            let frames = viewer.frame_counter();
            let report = run_with(config, Box::new(ViewerPanel::new(viewer)))?;
            Ok((report, frames))
        },
        |(report, frames)| {
            print_written(&report);
            println!("point-cloud frames: {}", frames.load(Ordering::Relaxed));
        },
    )
}
// ANCHOR_END: main
