//! `cargo xtask figures` runs this: the template's screenshots and measurements, written under
//! `figures/`. With no display (CI, a server) it starts its own Xvfb. It runs the template as a
//! child process of itself (a winit event loop can be created only once per process).
//!
//! `--quick` measures for 3 seconds instead of 10. `--redraw` measures nothing: none of the
//! template's figures is a chart drawn from a table, so it only reports them.

use std::process::{Command, ExitCode};

use anyhow::{Context, bail};

use egui_winit_wgpu_template::xvfb::Xvfb;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--template") {
        // The child: be the template with the rest of the flags.
        return egui_winit_wgpu_template::main_with_args(args[1..].to_vec());
    }
    let figures = bench_harness::FigureArgs::parse_with_about(
        "Screenshots and measurements of the egui + winit + wgpu template",
    );
    if figures.redraw {
        return bench_harness::exit_code(redraw(&figures).map(drop));
    }
    bench_harness::exit_code(run(&figures))
}

/// `--redraw`: the template's figures are screenshots the GPU rendered and a table of
/// measurements without a chart, so there is nothing to draw again; says so for each.
fn redraw(
    args: &bench_harness::FigureArgs,
) -> Result<bench_harness::RedrawReport, bench_harness::RedrawError> {
    use bench_harness::Drawn;
    args.redraw("template_figures", SOURCES, |found| {
        let why = if found.sidecar.files.iter().any(|f| f.ends_with(".png")) {
            "a screenshot the GPU rendered (PNG), not a chart drawn from a table"
        } else {
            "tables of measurements (CSV and Markdown) without a chart"
        };
        Ok::<_, std::convert::Infallible>(Drawn::Kept(why.into()))
    })
}

/// The source files that write the template's figures (their sidecars' `program`).
const SOURCES: &[&str] = &[
    "code/egui_winit_wgpu_template/src/app.rs",
    "code/egui_winit_wgpu_template/src/measure.rs",
];

fn run(args: &bench_harness::FigureArgs) -> anyhow::Result<()> {
    args.start(&["screenshots"])?;
    let quick = args.quick;
    let figures = bench_harness::figures_dir();
    let has_display =
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    let xvfb = if has_display {
        None
    } else {
        Some(Xvfb::start()?)
    };
    let me = std::env::current_exe().context("cannot find this program")?;
    // Relative to the repository root when run from there (as `cargo xtask figures` does), so the
    // path the panel shows in its screenshot is not a path on one machine.
    let cwd = std::env::current_dir().unwrap_or_default();
    let figures = figures
        .strip_prefix(&cwd)
        .map(|p| p.to_path_buf())
        .unwrap_or(figures);
    let shot = figures.join("template.png");
    let seconds = if quick { "3" } else { "10" };
    let runs: [Vec<String>; 2] = [
        ["--frames", "60", "--screenshot"]
            .iter()
            .map(|s| s.to_string())
            .chain([shot.display().to_string()])
            .collect(),
        vec![
            "--measure".into(),
            seconds.into(),
            "--out".into(),
            figures.display().to_string(),
        ],
    ];
    for args in runs {
        let mut cmd = Command::new(&me);
        cmd.arg("--template").args(&args);
        if let Some(x) = &xvfb {
            x.configure(&mut cmd);
        }
        eprintln!("running the template with {}", args.join(" "));
        let status = cmd.status().context("cannot run the template")?;
        if !status.success() {
            bail!("the template run with {} failed ({status})", args.join(" "));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;

    use super::*;

    #[test]
    fn redraw_finds_the_committed_figures_and_draws_none() {
        let committed = CommittedFigures::copy("template_figures", SOURCES).unwrap();
        let report = redraw(&committed.args()).unwrap();
        assert_eq!(
            report.kept_names(),
            ["template_measurements", "template_panel", "template_render"]
        );
        assert!(report.written.is_empty() && report.unchanged.is_empty());
    }
}
