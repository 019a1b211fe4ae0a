//! Configuration: defaults, then an optional TOML file, then command-line flags (last one wins).
//! Every bad value is an error that names the flag or key and says what would be accepted.

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
#[derive(Debug, PartialEq)]
pub enum ConfigError {
    /// `--help` was asked for: not an error, but the program prints the usage and stops.
    HelpRequested,
    UnknownFlag(String),
    MissingValue(String),
    BadValue {
        what: String,
        value: String,
        expected: String,
    },
    File {
        path: PathBuf,
        message: String,
    },
    ScreenshotNeedsFrames,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::HelpRequested => write!(f, "{USAGE}"),
            ConfigError::UnknownFlag(flag) => {
                write!(f, "unknown flag `{flag}`; run with --help to see the flags")
            }
            ConfigError::MissingValue(flag) => {
                write!(f, "`{flag}` needs a value after it, e.g. `{flag} 10`")
            }
            ConfigError::BadValue {
                what,
                value,
                expected,
            } => write!(f, "bad value `{value}` for {what}: expected {expected}"),
            ConfigError::File { path, message } => {
                write!(f, "config file {}: {message}", path.display())
            }
            ConfigError::ScreenshotNeedsFrames => write!(
                f,
                "--screenshot needs --frames N: how many frames to render before taking it"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

pub const USAGE: &str = "\
usage: egui_winit_wgpu_template [FLAGS]

Two windows: an egui control panel and a render window with a spinning triangle.

  --config FILE       read settings from a TOML file first (flags below override it)
  --width PX          render window width  (1..=8192, default 800)
  --height PX         render window height (1..=8192, default 600)
  --colour RRGGBB     triangle colour, hex, e.g. ff8800 or #ff8800
  --speed DEG         spin speed in degrees per second (-720..=720, default 45)
  --rotation DEG      starting angle in degrees (-360..=360, default 0)
  --frames N          headless run: render N frames (1..=100000) and exit
  --screenshot PATH   with --frames: write PATH's stem + _render.png and _panel.png
  --measure SECONDS   measure FPS and control-to-frame latency (0.5..=600), write CSVs, exit
  --out DIR           where --measure writes (default: the repository's figures/ folder)
  --help              this text

In the render window: drag with the left button to move the triangle, scroll to scale it,
Left/Right to turn it by 15 degrees, Up/Down to change the speed, Space to pause, R to reset.

Config file keys (all optional): width, height, colour = \"ff8800\", speed, rotation.
";

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
    /// Reads the flags (without the program name). `--config FILE` is read first wherever it
    /// appears, so flags always override the file.
    pub fn from_args<I, S>(args: I) -> Result<Self, ConfigError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let args: Vec<String> = args.into_iter().map(Into::into).collect();
        let mut config = Config::default();
        if let Some(i) = args.iter().position(|a| a == "--config") {
            let path = args
                .get(i + 1)
                .ok_or_else(|| ConfigError::MissingValue("--config".into()))?;
            config.apply_file(Path::new(path))?;
        }
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            if flag == "--help" || flag == "-h" {
                return Err(ConfigError::HelpRequested);
            }
            let mut value = || {
                it.next()
                    .map(String::as_str)
                    .ok_or_else(|| ConfigError::MissingValue(flag.clone()))
            };
            match flag.as_str() {
                "--config" => {
                    value()?;
                }
                "--width" => config.width = parse_size(flag, value()?)?,
                "--height" => config.height = parse_size(flag, value()?)?,
                "--colour" | "--color" => config.params.colour = parse_colour(flag, value()?)?,
                "--speed" => config.params.speed_deg_per_s = parse_speed(flag, value()?)?,
                "--rotation" => config.params.rotation_deg = parse_rotation(flag, value()?)?,
                "--frames" => {
                    config.frames = Some(parse_in_range(flag, value()?, 1u32..=100_000)?);
                }
                "--screenshot" => config.screenshot = Some(PathBuf::from(value()?)),
                "--measure" => {
                    let secs: f64 = parse_in_range(flag, value()?, 0.5..=600.0)?;
                    config.measure = Some(Duration::from_secs_f64(secs));
                }
                "--out" => config.out_dir = Some(PathBuf::from(value()?)),
                other => return Err(ConfigError::UnknownFlag(other.to_owned())),
            }
        }
        if config.screenshot.is_some() && config.frames.is_none() {
            return Err(ConfigError::ScreenshotNeedsFrames);
        }
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
            self.width = parse_size("key `width`", &w.to_string())?;
        }
        if let Some(h) = file.height {
            self.height = parse_size("key `height`", &h.to_string())?;
        }
        if let Some(c) = file.colour {
            self.params.colour = parse_colour("key `colour`", &c)?;
        }
        if let Some(s) = file.speed {
            self.params.speed_deg_per_s = parse_speed("key `speed`", &s.to_string())?;
        }
        if let Some(r) = file.rotation {
            self.params.rotation_deg = parse_rotation("key `rotation`", &r.to_string())?;
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

fn parse_in_range<T>(
    what: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display,
{
    let bad = || ConfigError::BadValue {
        what: what.to_owned(),
        value: value.to_owned(),
        expected: format!("a number from {} to {}", range.start(), range.end()),
    };
    let parsed: T = value.trim().parse().map_err(|_| bad())?;
    if range.contains(&parsed) {
        Ok(parsed)
    } else {
        Err(bad())
    }
}

fn parse_size(what: &str, value: &str) -> Result<u32, ConfigError> {
    parse_in_range(what, value, 1u32..=8192)
}

fn parse_speed(what: &str, value: &str) -> Result<f32, ConfigError> {
    parse_in_range(what, value, -720.0f32..=720.0)
}

fn parse_rotation(what: &str, value: &str) -> Result<f32, ConfigError> {
    parse_in_range(what, value, -360.0f32..=360.0)
}

/// "ff8800" or "#ff8800" → [255, 136, 0].
pub fn parse_colour(what: &str, value: &str) -> Result<[u8; 3], ConfigError> {
    let hex = value.trim().trim_start_matches('#');
    let bad = || ConfigError::BadValue {
        what: what.to_owned(),
        value: value.to_owned(),
        expected: "six hex digits RRGGBB, e.g. ff8800".into(),
    };
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}
