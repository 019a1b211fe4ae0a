//! What the user did in the render window, as plain data: [`crate::input`] translates winit's
//! events into these at the boundary, and [`crate::scene::Scene`] reacts to them. A leaf module:
//! the scene can use it without knowing about the messages that carry it between threads.

/// The keys the render window reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Left,
    Right,
    Up,
    Down,
    Space,
    Reset,
}

/// Pointer input in the render window, in physical pixels from the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pointer {
    Moved {
        x: f32,
        y: f32,
    },
    Pressed,
    Released,
    /// Scroll wheel: positive is away from the user (zoom in).
    Scrolled {
        lines: f32,
    },
    Left,
}
