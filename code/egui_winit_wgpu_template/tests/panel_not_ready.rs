//! The panel's event loop never waits for its surface: while the surface has no image to draw
//! into, input still reaches the widgets and their commands are sent, and the frame asks to be
//! retried shortly instead of blocking. The surfaces here are stand-ins; no window, no GPU.

use std::path::Path;

use crossbeam_channel::Receiver;
use egui::accesskit::{self, NodeId};
use egui_winit_wgpu_template::error::FrameError;
use egui_winit_wgpu_template::messages::{Command, Control};
use egui_winit_wgpu_template::panel::ControlPanel;
use egui_winit_wgpu_template::panel_frame::{Acquire, PanelSurface, RETRY_AFTER, run_panel_frame};
use egui_winit_wgpu_template::scene::Params;

/// A surface whose presentation engine holds every image: each acquire answers "not ready".
#[derive(Default)]
struct NeverReady {
    acquires: usize,
    textures_set: usize,
}

impl PanelSurface for NeverReady {
    type Frame = ();
    fn set_textures(&mut self, delta: &mut egui::TexturesDelta) {
        self.textures_set += delta.set.drain().count();
    }
    fn free_textures(&mut self, delta: &mut egui::TexturesDelta) {
        delta.free.clear();
    }
    fn acquire(&mut self) -> Result<Acquire<()>, FrameError> {
        self.acquires += 1;
        Ok(Acquire::NotReady)
    }
    fn reconfigure(&mut self) {}
    fn draw(
        &mut self,
        (): (),
        _: &[egui::ClippedPrimitive],
        _: f32,
        _: Option<&Path>,
    ) -> Result<(), FrameError> {
        panic!("nothing may be drawn on a surface that never had an image")
    }
}

fn input(events: Vec<egui::Event>) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(400.0, 600.0),
        )),
        events,
        ..Default::default()
    }
}

/// The centre of the widget labelled `label`, from egui's accessibility tree.
fn centre_of(update: &accesskit::TreeUpdate, label: &str) -> egui::Pos2 {
    let (_, node): &(NodeId, accesskit::Node) = update
        .nodes
        .iter()
        .find(|(_, n)| n.label() == Some(label))
        .unwrap_or_else(|| panic!("no widget labelled {label:?} in the panel"));
    let r = node.bounds().expect("egui gives every widget bounds");
    egui::pos2(((r.x0 + r.x1) / 2.0) as f32, ((r.y0 + r.y1) / 2.0) as f32)
}

fn click_at(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    }
}

fn colour_changes(commands: &Receiver<Command>) -> Vec<[u8; 3]> {
    commands
        .try_iter()
        .filter_map(|c| match c {
            Command::Control {
                change: Control::Colour(c),
                ..
            } => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn a_click_is_handled_while_the_surface_has_no_image() {
    let (command_tx, commands) = crossbeam_channel::unbounded();
    let (_status_tx, status_rx) = crossbeam_channel::bounded(4);
    let mut panel = ControlPanel::new(Params::default(), command_tx, status_rx);
    let ctx = egui::Context::default();
    ctx.enable_accesskit();
    let mut surface = NeverReady::default();

    let first = run_panel_frame(&ctx, input(vec![]), &mut panel, &mut surface, None).unwrap();
    assert!(!first.drawn);
    // Not waiting for an image means asking for another frame soon.
    assert!(first.repaint_after.is_some_and(|d| d <= RETRY_AFTER));
    // egui's font atlas is uploaded even though nothing could be drawn.
    assert!(surface.textures_set > 0);

    let tree = first
        .platform_output
        .accesskit_update
        .expect("accesskit was enabled");
    let blue = centre_of(&tree, "Blue");
    for events in [
        vec![egui::Event::PointerMoved(blue), click_at(blue, true)],
        vec![click_at(blue, false)],
    ] {
        let frame = run_panel_frame(&ctx, input(events), &mut panel, &mut surface, None).unwrap();
        assert!(!frame.drawn);
        assert!(frame.repaint_after.is_some_and(|d| d <= RETRY_AFTER));
    }

    assert_eq!(colour_changes(&commands), [[40, 110, 230]]);
    assert_eq!(panel.params.colour, [40, 110, 230]);
    assert_eq!(surface.acquires, 3);
}
