//! End to end: the real binary, its two windows on a private X server (Xvfb, started here as the
//! template's tests do), the GPU stage on whatever adapter there is (lavapipe without a GPU). A headless
//! run draws its frames, writes its screenshots, shuts the pipeline down and loses no frame.
#![cfg(target_os = "linux")]

use std::process::{Command, Stdio};
use std::time::Duration;

use egui_winit_wgpu_template::capture::Image;
use egui_winit_wgpu_template::xvfb::Xvfb;

const BIN: &str = env!("CARGO_BIN_EXE_project_skeleton");
/// Generous: start-up (three devices, shaders) on a busy two-core machine takes seconds.
const LIMIT: Duration = Duration::from_secs(120);

/// The numbers after each word in "pipeline: produced 10 processed 9 …".
fn field(line: &str, name: &str) -> i64 {
    let mut words = line.split_whitespace();
    words.find(|w| *w == name);
    words
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {line:?}"))
}

// ANCHOR: headless_test
#[test]
fn gpu_headless_run_shows_the_pipeline_and_shuts_it_down_with_no_frame_lost() {
    let xvfb = Xvfb::start().expect("Xvfb starts (Debian/Ubuntu: apt install xvfb)");
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("run.png");
    let mut cmd = Command::new(BIN);
    cmd.args(["--frames", "40", "--screenshot"])
        .arg(&shot)
        .stderr(Stdio::inherit());
    let run = xvfb
        .run_with_limit(&mut cmd, LIMIT)
        .expect("the skeleton binary runs and exits");
    let (status, out) = (run.status, run.stdout);
    assert!(status.success(), "exit {status:?}; output:\n{out}");

    let line = out
        .lines()
        .find(|l| l.starts_with("pipeline:"))
        .unwrap_or_else(|| panic!("no pipeline line in:\n{out}"));
    assert!(field(line, "produced") > 0, "{line}");
    assert!(field(line, "processed") > 0, "{line}");
    assert_eq!(field(line, "lost"), 0, "{line}");
    assert!(out.lines().any(|l| l == "pipeline joined"), "{out}");
    // Both windows were captured: the render window and the panel with the pipeline's widgets.
    for name in ["run_render.png", "run_panel.png"] {
        let image = Image::read_png(&dir.path().join(name)).unwrap();
        assert!(image.width > 0 && image.height > 0);
    }
}
// ANCHOR_END: headless_test
