//! Flags and the TOML file: good values are taken, bad ones are clear errors.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use egui_winit_wgpu_template::config::{Config, ConfigError, screenshot_paths};

fn parse(args: &[&str]) -> Result<Config, ConfigError> {
    Config::from_args(args.iter().copied())
}

#[test]
fn defaults_without_flags() {
    let c = parse(&[]).unwrap();
    assert_eq!(c, Config::default());
    assert_eq!((c.width, c.height), (800, 600));
}

#[test]
fn flags_set_values() {
    let c = parse(&[
        "--width",
        "320",
        "--height",
        "200",
        "--colour",
        "#286ee6",
        "--speed",
        "-90",
        "--rotation",
        "30",
        "--frames",
        "5",
        "--screenshot",
        "out/shot.png",
        "--measure",
        "2.5",
        "--out",
        "m",
    ])
    .unwrap();
    assert_eq!((c.width, c.height), (320, 200));
    assert_eq!(c.params.colour, [0x28, 0x6e, 0xe6]);
    assert_eq!(c.params.speed_deg_per_s, -90.0);
    assert_eq!(c.params.rotation_deg, 30.0);
    assert_eq!(c.frames, Some(5));
    assert_eq!(c.screenshot, Some(PathBuf::from("out/shot.png")));
    assert_eq!(c.measure, Some(Duration::from_secs_f64(2.5)));
    assert_eq!(c.out_dir, Some(PathBuf::from("m")));
}

#[test]
fn bad_values_name_the_flag_and_what_is_accepted() {
    let cases: [(&[&str], &str); 6] = [
        (&["--width", "0"], "a number from 1 to 8192"),
        (&["--height", "tall"], "--height"),
        (&["--colour", "orange"], "six hex digits"),
        (&["--speed", "1e9"], "-720 to 720"),
        (&["--frames", "-3"], "--frames"),
        (&["--measure", "0.1"], "0.5 to 600"),
    ];
    for (args, expected) in cases {
        let message = parse(args).unwrap_err().to_string();
        assert!(message.contains(expected), "{args:?}: {message}");
    }
    let kind = |args: &[&str]| match parse(args) {
        Err(ConfigError::Flags(e)) => e.kind(),
        other => panic!("{args:?}: expected a flag error, got {other:?}"),
    };
    use clap::error::ErrorKind;
    assert_eq!(kind(&["--fast"]), ErrorKind::UnknownArgument);
    assert_eq!(kind(&["--width"]), ErrorKind::InvalidValue);
    assert_eq!(
        kind(&["--screenshot", "a.png"]),
        ErrorKind::MissingRequiredArgument,
        "--screenshot needs --frames"
    );
    assert_eq!(kind(&["--help"]), ErrorKind::DisplayHelp);
}

#[test]
fn a_toml_file_is_read_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("template.toml");
    std::fs::write(
        &path,
        "width = 640\nheight = 480\ncolour = \"00ff00\"\nspeed = 10\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let c = parse(&["--speed", "20", "--config", file]).unwrap();
    assert_eq!((c.width, c.height), (640, 480));
    assert_eq!(c.params.colour, [0, 255, 0]);
    assert_eq!(
        c.params.speed_deg_per_s, 20.0,
        "the flag wins over the file"
    );
}

#[test]
fn a_bad_toml_file_says_which_file_and_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    let file = path.to_str().unwrap();
    for (text, expected) in [
        ("widht = 3", "unknown field"),
        ("width = \"wide\"", "width"),
        ("width = 0", "a number from 1 to 8192"),
        ("colour = \"blue\"", "six hex digits"),
        ("width = ", "bad.toml"),
    ] {
        std::fs::write(&path, text).unwrap();
        let message = parse(&["--config", file]).unwrap_err().to_string();
        assert!(message.contains("bad.toml"), "{text}: {message}");
        assert!(message.contains(expected), "{text}: {message}");
    }
    let missing = parse(&["--config", "/no/such/file.toml"])
        .unwrap_err()
        .to_string();
    assert!(missing.contains("cannot read it"), "{missing}");
}

#[test]
fn screenshot_paths_share_the_stem() {
    let (render, panel) = screenshot_paths(std::path::Path::new("figures/template.png"));
    assert_eq!(render, PathBuf::from("figures/template_render.png"));
    assert_eq!(panel, PathBuf::from("figures/template_panel.png"));
}

#[test]
fn the_binary_reports_a_bad_flag_without_a_backtrace_and_exits_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_egui_winit_wgpu_template"))
        .args(["--speed", "fast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: invalid value 'fast' for '--speed <DEG>'")
            && stderr.contains("expected a number from -720 to 720"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn help_prints_the_flags_and_exits_0() {
    let out = Command::new(env!("CARGO_BIN_EXE_egui_winit_wgpu_template"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--screenshot <PATH>"));
}
