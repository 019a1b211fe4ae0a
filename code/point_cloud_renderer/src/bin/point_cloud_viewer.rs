//! `point_cloud_viewer`: the renderer live in the template's windows. Takes the template's flags
//! (`--help`); the point count, the variant and the orbit are chosen in the control panel.

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use egui_winit_wgpu_template::error::chain;
use egui_winit_wgpu_template::{Config, ConfigError, config, run_with};
use point_cloud_renderer::viewer::{Viewer, ViewerPanel};

/// The frame the panel shows, in pixels: small, so a software adapter keeps up.
const FRAME: (u32, u32) = (320, 180);

// ANCHOR: main
fn main() -> ExitCode {
    let config = match Config::from_args(std::env::args().skip(1)) {
        Ok(config) => config,
        Err(ConfigError::HelpRequested) => {
            print!("{}", config::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let viewer = match Viewer::new(FRAME) {
        Ok(viewer) => viewer,
        Err(e) => {
            eprintln!(
                "error: cannot start the point-cloud renderer: {}",
                chain(&e)
            );
            return ExitCode::FAILURE;
        }
    };
    let frames = viewer.frame_counter();
    match run_with(config, Box::new(ViewerPanel::new(viewer))) {
        Ok(report) => {
            for file in &report.files {
                println!("wrote {}", file.display());
            }
            println!("frames drawn: {}", report.frames);
            println!("point-cloud frames: {}", frames.load(Ordering::Relaxed));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", chain(&e));
            ExitCode::FAILURE
        }
    }
}
// ANCHOR_END: main
