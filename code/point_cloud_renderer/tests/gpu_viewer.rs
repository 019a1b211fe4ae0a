//! End to end: the viewer binary, its two windows on a private X server (Xvfb, as the template's
//! tests start it), the renderer on whatever adapter there is (lavapipe in CI). A short headless
//! run renders point-cloud frames, writes both windows' screenshots and exits cleanly.
#![cfg(target_os = "linux")]

use std::process::{Command, Stdio};
use std::time::Duration;

use egui_winit_wgpu_template::capture::Image;
use egui_winit_wgpu_template::xvfb::Xvfb;

const BIN: &str = env!("CARGO_BIN_EXE_point_cloud_viewer");
/// Generous: start-up (devices, shaders) on a busy two-core machine takes seconds.
const LIMIT: Duration = Duration::from_secs(120);

// ANCHOR: headless_test
#[test]
fn gpu_headless_run_renders_the_point_cloud_in_the_panel() {
    let xvfb = Xvfb::start().expect("Xvfb starts (Debian/Ubuntu: apt install xvfb)");
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("run.png");
    let mut cmd = Command::new(BIN);
    cmd.args(["--frames", "20", "--screenshot"])
        .arg(&shot)
        .stderr(Stdio::inherit());
    let run = xvfb
        .run_with_limit(&mut cmd, LIMIT)
        .expect("the viewer binary runs and exits");
    let (status, out) = (run.status, run.stdout);
    assert!(status.success(), "exit {status:?}; output:\n{out}");

    let rendered: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("point-cloud frames: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no point-cloud frame count in:\n{out}"));
    assert!(rendered > 0, "{out}");
    for name in ["run_render.png", "run_panel.png"] {
        let image = Image::read_png(&dir.path().join(name)).unwrap();
        assert!(image.width > 0 && image.height > 0);
    }
}
// ANCHOR_END: headless_test
