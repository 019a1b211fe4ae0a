//! `project_skeleton`: the template's flags (`--help`), plus the pipeline in its panel.

use std::process::ExitCode;

use egui_winit_wgpu_template::error::chain;
use egui_winit_wgpu_template::{Config, ConfigError, config};

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
    match project_skeleton::app::run(config) {
        Ok(report) => {
            for file in &report.windows.files {
                println!("wrote {}", file.display());
            }
            let p = report.pipeline;
            println!("frames drawn: {}", report.windows.frames);
            println!(
                "pipeline: produced {} (skipped late {}) processed {} delivered {} dropped {} {} {} lost {}",
                p.produced,
                p.skipped_at_source,
                p.processed,
                p.delivered,
                p.dropped_before_processing,
                p.dropped_in_processing,
                p.dropped_before_consumer,
                p.lost()
            );
            println!(
                "recorder: written {} dropped {}",
                report.recorder.written, report.recorder.dropped
            );
            println!("pipeline joined");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", chain(&e));
            ExitCode::FAILURE
        }
    }
}
