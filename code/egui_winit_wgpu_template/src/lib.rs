//! The egui + winit + wgpu application template of module 2.
//!
//! Two windows share one winit event loop on the main thread: a control panel drawn with egui,
//! and a render window drawn by a render engine that runs on its own thread. The main thread sends
//! the engine [`messages::Command`]s over one crossbeam channel; the engine answers with
//! [`messages::Status`] over another. See the book's chapters on events and GUIs.
//!
//! - [`scene`]: what is drawn, as plain data (no GPU); [`render_input`]: the keys and pointer
//!   events it reacts to;
//! - [`renderer`]: the drawing itself, into any texture view;
//! - [`engine`]: the engine's state, one frame at a time, and its thread;
//! - [`panel`]: the control panel's egui code (no window: testable with egui_kittest);
//! - [`extension`]: widgets added to the panel from outside the template, and their scene edits;
//! - [`panel_window`], [`input`], [`app`]: winit glue;
//! - [`config`]: flags (clap) and the TOML file; [`capture`]: PNG screenshots; [`measure`]: `--measure`;
//! - [`error`]: what can go wrong, step by step.

pub mod app;
pub mod capture;
pub mod config;
pub mod engine;
pub mod error;
pub mod extension;
pub mod input;
pub mod measure;
pub mod messages;
pub mod panel;
pub mod panel_frame;
pub mod panel_window;
pub mod render_input;
pub mod renderer;
pub mod scene;
pub mod xvfb;

pub use app::{RunReport, run, run_with};
pub use config::{Config, ConfigError, Flags};

/// The binary's body: parse the flags, run, print what was written. Returns the exit code.
pub fn main_with_args(args: Vec<String>) -> std::process::ExitCode {
    main_with_extension(args, Box::new(extension::NoExtension))
}

/// [`main_with_args`], with `extension`'s widgets in the control panel.
pub fn main_with_extension(
    args: Vec<String>,
    extension: Box<dyn extension::PanelExtension>,
) -> std::process::ExitCode {
    run_app(
        args,
        |config| Ok(run_with(config, extension)?),
        |report| {
            print_written(&report);
            if report.engine_joined {
                println!("render engine thread joined");
            }
        },
    )
}

/// The `main` of every window program built on the template, as the wgpu examples'
/// `framework::run` is theirs: read the template's [`config::Flags`] from `args` (without the
/// program's name; clap prints `--help`), `start` the program with them, then `report` what it
/// did. A bad flag or config file exits with 2, a failed run prints its error with every cause
/// and exits with 1.
pub fn run_app<I, S, R>(
    args: I,
    start: impl FnOnce(Config) -> Result<R, Box<dyn std::error::Error>>,
    report: impl FnOnce(R),
) -> std::process::ExitCode
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    use std::process::ExitCode;
    let config = match Config::from_args(args) {
        Ok(config) => config,
        Err(ConfigError::Flags(e)) => {
            // clap's own text: the help (exit code 0) or what is wrong with a flag (2).
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match start(config) {
        Ok(done) => {
            report(done);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", error::chain(&*e));
            ExitCode::FAILURE
        }
    }
}

/// Prints the files a run wrote and how many frames it drew.
pub fn print_written(report: &RunReport) {
    for file in &report.files {
        println!("wrote {}", file.display());
    }
    println!("frames drawn: {}", report.frames);
}
