//! The two kinds of message that cross between threads: commands to the render engine, and the
//! engine's status back to the control panel. They are plain data (no winit or wgpu types), so
//! the engine and the panel can each be tested without the other, and without windows.

use std::path::PathBuf;
use std::time::Instant;

use crate::extension::SceneEdit;
use crate::render_input::{Key, Pointer};
use crate::scene::Scene;

// ANCHOR: command
/// What the main thread tells the render engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A parameter changed in the control panel. `sent_at` lets the engine measure how long the
    /// change took to reach the screen.
    Control { change: Control, sent_at: Instant },
    /// The render window's drawing area changed size. 0 × 0 means minimised: stop drawing.
    Resize { width: u32, height: u32 },
    /// A key was pressed in the render window.
    Key(Key),
    /// The mouse did something in the render window.
    Pointer(Pointer),
    /// The window system asked for the render window to be drawn again (e.g. it was uncovered).
    Redraw,
    /// Copy the next frame into a PNG file.
    Screenshot(PathBuf),
    /// Stop: the thread ends its loop and returns.
    Shutdown,
}

/// A change made in the control panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Control {
    Colour([u8; 3]),
    RotationDeg(f32),
    SpeedDegPerS(f32),
    Paused(bool),
    Reset,
    /// From a control added to the panel from outside the template (see [`crate::extension`]).
    Edit(SceneEdit),
}
// ANCHOR_END: command

impl Control {
    // ANCHOR: apply
    /// Makes the change in `scene` (on the engine's thread).
    pub fn apply_to(&self, scene: &mut Scene) {
        match *self {
            Control::Colour(c) => scene.params.colour = c,
            Control::RotationDeg(r) => scene.params.rotation_deg = r,
            Control::SpeedDegPerS(s) => scene.params.speed_deg_per_s = s,
            Control::Paused(p) => scene.params.paused = p,
            Control::Reset => scene.reset(),
            Control::Edit(ref edit) => edit.apply(scene),
        }
    }
    // ANCHOR_END: apply
}

// ANCHOR: status
/// What the render engine tells the control panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Sent a few times per second while drawing.
    Frames(FrameStats),
    /// A control change reached the screen: how long it took.
    Latency(Latency),
    /// A screenshot was written.
    Screenshot(PathBuf),
    /// Something went wrong; the engine keeps going if it can.
    Error(String),
    /// A headless run drew its last frame.
    Finished { frames: u64 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameStats {
    /// Frames presented since the engine started.
    pub frames: u64,
    /// Frames per second over the last reporting window.
    pub fps: f32,
    /// Mean time between frames over that window, in milliseconds.
    pub frame_ms: f32,
    pub width: u32,
    pub height: u32,
    pub paused: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Latency {
    /// 1: the very next frame presented after the change showed it.
    pub frames: u32,
    /// From the change in the panel until the frame showing it was presented.
    pub ms: f64,
}
// ANCHOR_END: status
