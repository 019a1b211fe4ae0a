//! What can go wrong in the template. Each message names the step that failed and, where there is
//! one, what to do; the error it wraps is its `source()`, and [`chain`] prints them all.

use std::path::PathBuf;

use gpu_context::{GpuError, wgpu};

/// Saving, reading or reading back an image.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error(
        "cannot save a {0:?} texture as PNG: only 8-bit RGBA or BGRA textures can be read back"
    )]
    Format(wgpu::TextureFormat),
    #[error(
        "this surface cannot be copied from: configure it with TextureUsages::COPY_SRC to take \
         screenshots"
    )]
    NotCopyable,
    #[error("waiting for the GPU to finish the read-back failed")]
    Poll(#[source] wgpu::PollError),
    #[error("the read-back callback never ran: the device went away before the copy finished")]
    CallbackDropped,
    #[error("mapping the read-back buffer failed")]
    Map(#[source] wgpu::BufferAsyncError),
    #[error("reading the mapped read-back buffer failed")]
    MappedRange(#[source] wgpu::MapRangeError),
    #[error("cannot {action} {}", path.display())]
    File {
        /// "create", "open", …
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {} as PNG", path.display())]
    Encode {
        path: PathBuf,
        #[source]
        source: png::EncodingError,
    },
    #[error("cannot read {} as PNG", path.display())]
    Decode {
        path: PathBuf,
        #[source]
        source: png::DecodingError,
    },
    #[error("{} is too large to decode in memory", path.display())]
    TooLarge { path: PathBuf },
    #[error(
        "{} has colour type {colour:?}: only 8-bit RGB and RGBA PNGs can be read",
        path.display()
    )]
    ColourType {
        path: PathBuf,
        colour: png::ColorType,
    },
}

/// Drawing one frame, in the render engine or the control panel.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error(
        "the {0} surface reported a validation error (a bug in how the program configures or \
         uses it)"
    )]
    SurfaceValidation(&'static str),
    #[error("cannot recreate the render surface after it was lost")]
    RecreateSurface(#[source] wgpu::CreateSurfaceError),
    #[error("read_pixels needs an offscreen engine: take a screenshot of a window instead")]
    NotOffscreen,
    #[error("the screenshot failed")]
    Capture(#[from] CaptureError),
}

/// Writing the `--measure` results.
#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    #[error(
        "the measurement collected {fps_reports} frame-rate reports and {latencies} latencies; \
         nothing to write (was the render window drawing?)"
    )]
    NoSamples {
        fps_reports: usize,
        latencies: usize,
    },
    #[error("a {what} sample was not a number")]
    NotANumber { what: &'static str },
    #[error("cannot write {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Starting a private X server.
#[derive(Debug, thiserror::Error)]
pub enum XvfbError {
    #[error("cannot start Xvfb: install it (Debian/Ubuntu: `sudo apt install xvfb`)")]
    Spawn(#[source] std::io::Error),
    #[error("Xvfb started but did not report a display number (it wrote {line:?})")]
    NoDisplay { line: String },
    #[error("the program under Xvfb could not be started or waited for")]
    Program(#[source] std::io::Error),
    #[error(
        "the program under Xvfb did not exit within {limit:?} and was killed; it printed:\n{stdout}"
    )]
    TimedOut {
        limit: std::time::Duration,
        stdout: String,
    },
}

/// A run of the template: opening the windows, drawing, and writing what was asked for.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot start the event loop (is there a display? set DISPLAY or WAYLAND_DISPLAY)")]
    EventLoop(#[source] winit::error::EventLoopError),
    #[error("the event loop failed")]
    EventLoopFailed(#[source] winit::error::EventLoopError),
    #[error("cannot open a window")]
    Window(#[source] winit::error::OsError),
    #[error("cannot make a drawing surface for a window")]
    Surface(#[source] wgpu::CreateSurfaceError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error("cannot start the render engine thread")]
    EngineThread(#[source] std::io::Error),
    #[error("the render engine thread panicked")]
    EnginePanicked,
    #[error("the render engine stopped unexpectedly")]
    EngineGone,
    /// The engine's own error, which reaches the main thread as text over the status channel.
    #[error("the render engine reported: {0}")]
    EngineReported(String),
    #[error("drawing the control panel failed")]
    Panel(#[source] FrameError),
    #[error("cannot write the screenshot's sidecar {}", path.display())]
    Sidecar {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the measurement failed")]
    Measure(#[from] MeasureError),
}

/// An error and every error under it, on one line: "cannot write x.png as PNG: I/O error: …".
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(e) = next {
        text.push_str(": ");
        text.push_str(&e.to_string());
        next = e.source();
    }
    text
}
