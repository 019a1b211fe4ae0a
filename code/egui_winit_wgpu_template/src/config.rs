//! Configuration: defaults, then an optional TOML file, then command-line flags (last one wins).
//! The flags are a clap [`Flags`] struct; every bad value is an error that names the flag or
//! key and says what would be accepted.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::scene::Params;

/// Everything the template can be told at start-up.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Size of the render window's drawing area, in physical pixels.
    pub width: u32,
    pub height: u32,
    /// What the triangle looks like at start.
    pub params: Params,
    /// Headless run: render this many frames, then exit.
    pub frames: Option<u32>,
    /// With `frames`: write `<stem>_render.png` and `<stem>_panel.png` (see [`screenshot_paths`]).
    pub screenshot: Option<PathBuf>,
    /// Measurement run: change the colour for this long, then write CSV files and exit.
    pub measure: Option<Duration>,
    /// Where a measurement run writes its CSV and sidecar files (default: the `figures/` folder).
    pub out_dir: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            width: 800,
            height: 600,
            params: Params::default(),
            frames: None,
            screenshot: None,
            measure: None,
            out_dir: None,
        }
    }
}

/// A configuration problem, with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The flags could not be read, or `--help` was asked for: clap's text says which, and its
    /// [`clap::Error::exit_code`] is 0 for help and 2 for a bad flag.
    #[error("{0}")]
    Flags(#[from] clap::Error),
    #[error("bad value `{value}` for {what}: {expected}")]
    BadValue {
        what: String,
        value: String,
        expected: String,
    },
    #[error("config file {}: {message}", path.display())]
    File { path: PathBuf, message: String },
}

const AFTER_HELP: &str = "\
In the render window: drag with the left button to move the triangle, scroll to scale it,
Left/Right to turn it by 15 degrees, Up/Down to change the speed, Space to pause, R to reset.

Config file keys (all optional): width, height, colour = \"ff8800\", speed, rotation.";

/// The flags of every window program built on the template, parsed by clap (`--help` lists
/// them). A flag not given keeps the config file's value, or the default.
#[derive(Clone, Debug, Default, PartialEq, clap::Parser)]
#[command(
    about = "Two windows: an egui control panel and a render window.",
    after_help = AFTER_HELP
)]
pub struct Flags {
    /// Read settings from a TOML file first (the flags override it)
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Render window width in pixels (1..=8192, default 800)
    #[arg(long, value_name = "PX", value_parser = parse_size)]
    pub width: Option<u32>,
    /// Render window height in pixels (1..=8192, default 600)
    #[arg(long, value_name = "PX", value_parser = parse_size)]
    pub height: Option<u32>,
    /// Triangle colour as hex, e.g. ff8800 or #ff8800
    #[arg(long, alias = "color", value_name = "RRGGBB", value_parser = parse_colour)]
    pub colour: Option<[u8; 3]>,
    /// Spin speed in degrees per second (-720..=720, default 45)
    #[arg(long, value_name = "DEG", value_parser = parse_speed, allow_negative_numbers = true)]
    pub speed: Option<f32>,
    /// Starting angle in degrees (-360..=360, default 0)
    #[arg(long, value_name = "DEG", value_parser = parse_rotation, allow_negative_numbers = true)]
    pub rotation: Option<f32>,
    /// Headless run: render N frames (1..=100000) and exit
    #[arg(long, value_name = "N", value_parser = parse_frames, allow_negative_numbers = true)]
    pub frames: Option<u32>,
    /// With --frames: write PATH's stem + _render.png and _panel.png
    #[arg(long, value_name = "PATH", requires = "frames")]
    pub screenshot: Option<PathBuf>,
    /// Measure FPS and control-to-frame latency for SECONDS (0.5..=600), write CSVs, exit
    #[arg(long, value_name = "SECONDS", value_parser = parse_measure)]
    pub measure: Option<Duration>,
    /// Where --measure writes (default: the repository's figures/ folder)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The keys a config file may have; unknown keys are an error (a typo should not pass silently).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    width: Option<u32>,
    height: Option<u32>,
    colour: Option<String>,
    speed: Option<f32>,
    rotation: Option<f32>,
}

impl Config {
    /// Reads the flags (without the program name): the config file first, wherever
    /// `--config` stands, then the flags, so flags always override the file.
    pub fn from_args<I, S>(args: I) -> Result<Self, ConfigError>
    where
        I: IntoIterator<Item = S>,
        S: Into<std::ffi::OsString> + Clone,
    {
        let program = std::env::args()
            .next()
            .and_then(|p| Some(Path::new(&p).file_name()?.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "egui_winit_wgpu_template".into());
        let flags = <Flags as clap::Parser>::try_parse_from(
            std::iter::once(std::ffi::OsString::from(program))
                .chain(args.into_iter().map(Into::into)),
        )?;
        Self::from_flags(flags)
    }

    /// The configuration the parsed `flags` give: defaults, then `--config`'s file, then the
    /// other flags.
    pub fn from_flags(flags: Flags) -> Result<Self, ConfigError> {
        let mut config = Config::default();
        if let Some(path) = &flags.config {
            config.apply_file(path)?;
        }
        let Flags {
            config: _,
            width,
            height,
            colour,
            speed,
            rotation,
            frames,
            screenshot,
            measure,
            out,
        } = flags;
        config.width = width.unwrap_or(config.width);
        config.height = height.unwrap_or(config.height);
        config.params.colour = colour.unwrap_or(config.params.colour);
        config.params.speed_deg_per_s = speed.unwrap_or(config.params.speed_deg_per_s);
        config.params.rotation_deg = rotation.unwrap_or(config.params.rotation_deg);
        config.frames = frames;
        config.screenshot = screenshot;
        config.measure = measure;
        config.out_dir = out;
        Ok(config)
    }

    /// Applies the settings found in a TOML file.
    pub fn apply_file(&mut self, path: &Path) -> Result<(), ConfigError> {
        let file_error = |message: String| ConfigError::File {
            path: path.to_owned(),
            message,
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| file_error(format!("cannot read it ({e}); check the path")))?;
        self.apply_toml(&text).map_err(|e| match e {
            ConfigError::File { message, .. } => file_error(message),
            other => file_error(other.to_string()),
        })
    }

    /// Applies settings given as TOML text (the contents of a config file).
    pub fn apply_toml(&mut self, text: &str) -> Result<(), ConfigError> {
        let file: FileConfig = toml::from_str(text).map_err(|e| {
            let mut message = e.message().to_owned();
            if let Some(span) = e.span() {
                let line = text[..span.start].matches('\n').count() + 1;
                message = format!("line {line}: {message}");
            }
            if !message.contains("expected one of") {
                message.push_str(" (the keys are width, height, colour, speed, rotation)");
            }
            ConfigError::File {
                path: PathBuf::from("<toml>"),
                message,
            }
        })?;
        if let Some(w) = file.width {
            self.width = checked("width", w.to_string(), parse_size)?;
        }
        if let Some(h) = file.height {
            self.height = checked("height", h.to_string(), parse_size)?;
        }
        if let Some(c) = file.colour {
            self.params.colour = checked("colour", c, parse_colour)?;
        }
        if let Some(s) = file.speed {
            self.params.speed_deg_per_s = checked("speed", s.to_string(), parse_speed)?;
        }
        if let Some(r) = file.rotation {
            self.params.rotation_deg = checked("rotation", r.to_string(), parse_rotation)?;
        }
        Ok(())
    }
}

/// The two PNG files a screenshot run writes: `dir/stem_render.png` and `dir/stem_panel.png`.
pub fn screenshot_paths(path: &Path) -> (PathBuf, PathBuf) {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "screenshot".into());
    let dir = path.parent().unwrap_or(Path::new(""));
    (
        dir.join(format!("{stem}_render.png")),
        dir.join(format!("{stem}_panel.png")),
    )
}

/// A config file's `key`, read by the flag's parser.
fn checked<T>(
    key: &str,
    value: String,
    parse: fn(&str) -> Result<T, String>,
) -> Result<T, ConfigError> {
    parse(&value).map_err(|expected| ConfigError::BadValue {
        what: format!("key `{key}`"),
        value,
        expected,
    })
}

/// `value` as a number in `range`; the error says what would be accepted.
fn parse_in_range<T>(value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + fmt::Display,
{
    let bad = || {
        format!(
            "expected a number from {} to {}",
            range.start(),
            range.end()
        )
    };
    let parsed: T = value.trim().parse().map_err(|_| bad())?;
    if range.contains(&parsed) {
        Ok(parsed)
    } else {
        Err(bad())
    }
}

fn parse_size(value: &str) -> Result<u32, String> {
    parse_in_range(value, 1u32..=8192)
}

fn parse_speed(value: &str) -> Result<f32, String> {
    parse_in_range(value, -720.0f32..=720.0)
}

fn parse_rotation(value: &str) -> Result<f32, String> {
    parse_in_range(value, -360.0f32..=360.0)
}

fn parse_frames(value: &str) -> Result<u32, String> {
    parse_in_range(value, 1u32..=100_000)
}

fn parse_measure(value: &str) -> Result<Duration, String> {
    parse_in_range(value, 0.5f64..=600.0).map(Duration::from_secs_f64)
}

/// "ff8800" or "#ff8800" → [255, 136, 0].
pub fn parse_colour(value: &str) -> Result<[u8; 3], String> {
    let hex = value.trim().trim_start_matches('#');
    let bad = || "expected six hex digits RRGGBB, e.g. ff8800".to_owned();
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}
