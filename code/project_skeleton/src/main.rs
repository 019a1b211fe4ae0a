//! `project_skeleton`: the template's flags (`--help`), plus the pipeline in its panel.

use std::process::ExitCode;

use egui_winit_wgpu_template::{print_written, run_app};

fn main() -> ExitCode {
    run_app(
        std::env::args().skip(1),
        |config| Ok(project_skeleton::app::run(config)?),
        |report| {
            print_written(&report.windows);
            let p = report.pipeline;
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
        },
    )
}
