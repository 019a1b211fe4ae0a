//! One frame of the control panel, arranged so that the event loop never waits for the panel's
//! surface. The UI runs every frame, so every widget change becomes a command at once; drawing
//! happens only when the surface has an image free. When it has none, the frame is skipped and
//! a new one asked for shortly, instead of blocking the thread that handles every window's input.

use std::path::Path;
use std::time::Duration;

use gpu_context::wgpu;

use crate::error::FrameError;
use crate::extension::PanelExtension;
use crate::panel::ControlPanel;

/// How soon a frame that found no free image is tried again.
pub const RETRY_AFTER: Duration = Duration::from_millis(4);

/// What a surface answers when asked for an image to draw the next frame into.
pub enum Acquire<F> {
    /// An image: draw into it and present it.
    Ready(F),
    /// No image free now (the presentation engine still holds them all): skip, retry soon.
    NotReady,
    /// Nothing to draw on (minimised or occluded): skip until an event says otherwise.
    Hidden,
    /// The surface changed under us (resized, outdated, lost): configure it again, retry soon.
    Reconfigure,
}

/// What the panel draws into. `PanelWindow` implements it on a wgpu surface; tests implement it
/// with surfaces that are never ready.
pub trait PanelSurface {
    type Frame;
    /// Uploads new and changed egui textures (before every frame, drawn or not).
    fn set_textures(&mut self, delta: &mut egui::TexturesDelta);
    /// Frees the textures egui no longer needs (after every frame, drawn or not).
    fn free_textures(&mut self, delta: &mut egui::TexturesDelta);
    /// Asks for the next image; with a non-waiting present mode it does not wait for the display
    /// refresh (wgpu itself gives up after about a second and answers `Timeout`).
    fn acquire(&mut self) -> Result<Acquire<Self::Frame>, FrameError>;
    /// Configures the surface again after it reported itself outdated or lost.
    fn reconfigure(&mut self);
    /// Draws the tessellated UI into `frame` and presents it (saving it as PNG to `screenshot`).
    fn draw(
        &mut self,
        frame: Self::Frame,
        jobs: &[egui::ClippedPrimitive],
        pixels_per_point: f32,
        screenshot: Option<&Path>,
    ) -> Result<(), FrameError>;
}

/// The outcome of one panel frame.
pub struct PanelFrame {
    /// What egui wants the window to do (cursor, clipboard, IME…).
    pub platform_output: egui::PlatformOutput,
    /// When to run the next frame (`None`: only when an event arrives).
    pub repaint_after: Option<Duration>,
    /// Whether the frame reached the screen (false: skipped, the surface had no image).
    pub drawn: bool,
}

// ANCHOR: run_panel_frame
/// Runs the panel's UI on `input` (sending whatever commands its widgets produce), then draws
/// the result if `surface` has an image free, and never waits for one.
pub fn run_panel_frame<X: PanelExtension, S: PanelSurface>(
    ctx: &egui::Context,
    input: egui::RawInput,
    panel: &mut ControlPanel<X>,
    surface: &mut S,
    screenshot: Option<&Path>,
) -> Result<PanelFrame, FrameError> {
    let output = ctx.run_ui(input, |ui| {
        egui::CentralPanel::default().show(ui, |ui| panel.ui(ui));
    });
    let repaint = requested_repaint(&output);
    let jobs = ctx.tessellate(output.shapes, output.pixels_per_point);
    // Texture changes must be applied (or explicitly dropped) every frame, drawn or not.
    let mut textures = output.textures_delta;
    surface.set_textures(&mut textures);
    let (drawn, retry) = match surface.acquire()? {
        Acquire::Ready(frame) => {
            surface.draw(frame, &jobs, output.pixels_per_point, screenshot)?;
            (true, false)
        }
        Acquire::NotReady => (false, true),
        Acquire::Hidden => (false, false),
        Acquire::Reconfigure => {
            surface.reconfigure();
            (false, true)
        }
    };
    surface.free_textures(&mut textures);
    Ok(PanelFrame {
        platform_output: output.platform_output,
        repaint_after: next_repaint(retry, repaint),
        drawn,
    })
}
// ANCHOR_END: run_panel_frame

/// When egui asked to be drawn again; "in an hour or more" means "not until something happens".
fn requested_repaint(output: &egui::FullOutput) -> Option<Duration> {
    output
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map(|v| v.repaint_delay)
        .filter(|d| *d < Duration::from_secs(3600))
}

/// A skipped frame is retried after [`RETRY_AFTER`], sooner if egui itself asked for sooner.
fn next_repaint(retry: bool, requested: Option<Duration>) -> Option<Duration> {
    match (retry, requested) {
        (true, Some(d)) => Some(d.min(RETRY_AFTER)),
        (true, None) => Some(RETRY_AFTER),
        (false, r) => r,
    }
}

// ANCHOR: present_mode
/// The panel's present mode: one in which acquiring an image does not wait for the display's
/// refresh. `Mailbox` replaces a queued frame with a newer one and never tears; `Immediate` may
/// tear, which a panel of sliders hardly shows. `Fifo` (which every surface supports) queues
/// frames for the refresh, so with it a redraw can wait for an image until the display frees
/// one; `run_panel_frame` then still runs the UI first, so commands are sent before any wait.
pub fn panel_present_mode(supported: &[wgpu::PresentMode]) -> wgpu::PresentMode {
    [wgpu::PresentMode::Mailbox, wgpu::PresentMode::Immediate]
        .into_iter()
        .find(|m| supported.contains(m))
        .unwrap_or(wgpu::PresentMode::Fifo)
}
// ANCHOR_END: present_mode

/// Sorts wgpu's answer to `get_current_texture` into what the panel does next.
pub fn classify(
    current: wgpu::CurrentSurfaceTexture,
) -> Result<Acquire<wgpu::SurfaceTexture>, FrameError> {
    match current {
        wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => {
            Ok(Acquire::Ready(f))
        }
        wgpu::CurrentSurfaceTexture::Timeout => Ok(Acquire::NotReady),
        wgpu::CurrentSurfaceTexture::Occluded => Ok(Acquire::Hidden),
        wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
            Ok(Acquire::Reconfigure)
        }
        wgpu::CurrentSurfaceTexture::Validation => {
            Err(FrameError::SurfaceValidation("control panel's"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::PresentMode::{AutoNoVsync, AutoVsync, Fifo, FifoRelaxed, Immediate, Mailbox};

    #[test]
    fn mailbox_is_preferred_then_immediate_then_fifo() {
        assert_eq!(panel_present_mode(&[Fifo, Immediate, Mailbox]), Mailbox);
        assert_eq!(panel_present_mode(&[Fifo, Immediate]), Immediate);
        assert_eq!(panel_present_mode(&[FifoRelaxed, Fifo]), Fifo);
        assert_eq!(panel_present_mode(&[AutoVsync, AutoNoVsync]), Fifo);
        assert_eq!(panel_present_mode(&[]), Fifo);
    }
}
