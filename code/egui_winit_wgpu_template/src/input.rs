//! Translating winit's window events into the engine's commands. This is the only place where
//! winit's input types meet the engine's: the engine never sees a winit type.

use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key as WinitKey, NamedKey};

use crate::messages::Command;
use crate::render_input::{Key, Pointer};

/// What the render window should do with one of its events.
#[derive(Debug, PartialEq)]
pub enum RenderWindowAction {
    /// Pass this command to the engine.
    Send(Command),
    /// Close the program (the window was closed, or Escape was pressed).
    Quit,
    Ignore,
}

// ANCHOR: translate
/// Maps a render-window event to an action. Key presses (not releases, not repeats of Space or
/// R) and pointer events become commands; everything else is ignored.
pub fn translate(event: &WindowEvent) -> RenderWindowAction {
    use RenderWindowAction::{Ignore, Quit, Send};
    match event {
        WindowEvent::CloseRequested => Quit,
        WindowEvent::Resized(size) => Send(Command::Resize {
            width: size.width,
            height: size.height,
        }),
        WindowEvent::RedrawRequested => Send(Command::Redraw),
        WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
            match &event.logical_key {
                WinitKey::Named(NamedKey::Escape) => Quit,
                key => match map_key(key, event.repeat) {
                    Some(k) => Send(Command::Key(k)),
                    None => Ignore,
                },
            }
        }
        WindowEvent::CursorMoved { position, .. } => Send(Command::Pointer(Pointer::Moved {
            x: position.x as f32,
            y: position.y as f32,
        })),
        WindowEvent::CursorLeft { .. } => Send(Command::Pointer(Pointer::Left)),
        WindowEvent::MouseInput {
            state,
            button: MouseButton::Left,
            ..
        } => Send(Command::Pointer(match state {
            ElementState::Pressed => Pointer::Pressed,
            ElementState::Released => Pointer::Released,
        })),
        WindowEvent::MouseWheel { delta, .. } => {
            let lines = match delta {
                MouseScrollDelta::LineDelta(_, y) => *y,
                // Touchpads report pixels; about 40 pixels make one wheel notch.
                MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
            };
            Send(Command::Pointer(Pointer::Scrolled { lines }))
        }
        _ => Ignore,
    }
}
// ANCHOR_END: translate

/// A held key repeats; turning and speeding up may repeat, toggles and resets may not.
pub fn map_key(key: &WinitKey, repeat: bool) -> Option<Key> {
    let k = match key {
        WinitKey::Named(NamedKey::ArrowLeft) => Key::Left,
        WinitKey::Named(NamedKey::ArrowRight) => Key::Right,
        WinitKey::Named(NamedKey::ArrowUp) => Key::Up,
        WinitKey::Named(NamedKey::ArrowDown) => Key::Down,
        WinitKey::Named(NamedKey::Space) => Key::Space,
        WinitKey::Character(c) if c.eq_ignore_ascii_case("r") => Key::Reset,
        _ => return None,
    };
    let toggles = matches!(k, Key::Space | Key::Reset);
    (!(toggles && repeat)).then_some(k)
}
