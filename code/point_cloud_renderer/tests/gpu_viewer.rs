//! End to end: the viewer binary, its two windows on a private X server (Xvfb, as the template's
//! tests start it), the renderer on whatever adapter there is (lavapipe in CI). A short headless
//! run renders point-cloud frames, writes both windows' screenshots and exits cleanly.
#![cfg(target_os = "linux")]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    xvfb.configure(&mut cmd);
    let mut child = cmd.spawn().expect("the viewer binary starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("the viewer did not exit within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = std::io::read_to_string(child.stdout.take().unwrap()).unwrap();
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
