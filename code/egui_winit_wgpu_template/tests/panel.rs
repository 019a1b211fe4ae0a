//! The control panel driven by egui_kittest: widgets send the right commands, and the status the
//! engine sends is what the panel shows. No window and no GPU.

use crossbeam_channel::{Receiver, Sender};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_winit_wgpu_template::extension::{PanelExtension, SceneEdit};
use egui_winit_wgpu_template::messages::{Command, Control, FrameStats, Latency, Status};
use egui_winit_wgpu_template::panel::ControlPanel;
use egui_winit_wgpu_template::scene::{Params, Scene};

struct Setup {
    harness: Harness<'static, ControlPanel>,
    commands: Receiver<Command>,
    status: Sender<Status>,
}

fn setup() -> Setup {
    let (command_tx, command_rx) = crossbeam_channel::unbounded();
    let (status_tx, status_rx) = crossbeam_channel::bounded(16);
    let panel = ControlPanel::new(Params::default(), command_tx, status_rx);
    let mut harness = Harness::new_ui_state(|ui, panel: &mut ControlPanel| panel.ui(ui), panel);
    harness.run();
    Setup {
        harness,
        commands: command_rx,
        status: status_tx,
    }
}

/// The control changes sent so far, without their time stamps.
fn changes(commands: &Receiver<Command>) -> Vec<Control> {
    commands
        .try_iter()
        .map(|c| match c {
            Command::Control { change, .. } => change,
            other => panic!("the panel sent a non-control command: {other:?}"),
        })
        .collect()
}

#[test]
fn nothing_is_sent_until_a_widget_changes() {
    let mut s = setup();
    s.harness.run();
    assert_eq!(changes(&s.commands), []);
}

// ANCHOR: slider_test
#[test]
fn moving_the_speed_slider_sends_the_new_speed() {
    let mut s = setup();
    s.harness
        .get_by_role_and_label(Role::Slider, "Speed (°/s)")
        .set_value_accesskit(90.0);
    s.harness.run();
    assert_eq!(changes(&s.commands), [Control::SpeedDegPerS(90.0)]);
    assert_eq!(s.harness.state().params.speed_deg_per_s, 90.0);
}
// ANCHOR_END: slider_test

#[test]
fn moving_the_rotation_slider_sends_the_new_angle() {
    let mut s = setup();
    s.harness
        .get_by_role_and_label(Role::Slider, "Rotation (°)")
        .set_value_accesskit(-30.0);
    s.harness.run();
    assert_eq!(changes(&s.commands), [Control::RotationDeg(-30.0)]);
}

#[test]
fn pressing_a_colour_button_sends_that_colour() {
    let mut s = setup();
    s.harness.get_by_label("Blue").click();
    s.harness.run();
    assert_eq!(changes(&s.commands), [Control::Colour([40, 110, 230])]);
    assert_eq!(s.harness.state().params.colour, [40, 110, 230]);
}

#[test]
fn ticking_paused_and_pressing_reset() {
    let mut s = setup();
    s.harness.get_by_label("Paused").click();
    s.harness.run();
    assert_eq!(changes(&s.commands), [Control::Paused(true)]);
    s.harness
        .get_by_role_and_label(Role::Slider, "Speed (°/s)")
        .set_value_accesskit(300.0);
    s.harness.run();
    s.harness.get_by_label("Reset").click();
    s.harness.run();
    assert_eq!(
        changes(&s.commands),
        [Control::SpeedDegPerS(300.0), Control::Reset]
    );
    assert_eq!(
        s.harness.state().params,
        Params::default(),
        "widgets show the start values again"
    );
}

#[test]
fn the_status_shown_is_the_status_received() {
    let mut s = setup();
    assert!(
        s.harness
            .query_by_label("Waiting for the first frame…")
            .is_some()
    );
    s.status
        .send(Status::Frames(FrameStats {
            frames: 1234,
            fps: 59.94,
            frame_ms: 16.68,
            width: 800,
            height: 600,
            paused: false,
        }))
        .unwrap();
    s.status
        .send(Status::Latency(Latency {
            frames: 2,
            ms: 21.25,
        }))
        .unwrap();
    let received = s.harness.state_mut().drain_status();
    assert_eq!(received.len(), 2);
    s.harness.run();
    for label in [
        "FPS: 59.9",
        "Frame time: 16.68 ms",
        "Frames: 1234",
        "Size: 800 × 600",
        "Last change shown after 2 frames, 21.2 ms",
    ] {
        assert!(
            s.harness.query_by_label(label).is_some(),
            "no label {label:?}"
        );
    }
    assert!(
        s.harness
            .query_by_label("Waiting for the first frame…")
            .is_none()
    );
}

#[test]
fn an_error_and_a_stopped_engine_are_shown() {
    let mut s = setup();
    s.status.send(Status::Error("surface lost".into())).unwrap();
    s.harness.state_mut().drain_status();
    s.harness.run();
    assert!(s.harness.query_by_label("Error: surface lost").is_some());
    drop(s.status);
    s.harness.state_mut().drain_status();
    s.harness.run();
    assert!(
        s.harness
            .query_by_label("The render engine has stopped.")
            .is_some()
    );
}

#[test]
fn a_closed_command_channel_is_shown_not_panicked_on() {
    let mut s = setup();
    drop(s.commands);
    s.harness.get_by_label("Red").click();
    s.harness.run();
    assert!(s.harness.state().shown.engine_gone);
    assert!(
        s.harness
            .query_by_label("The render engine has stopped.")
            .is_some()
    );
}

/// A control added from outside the template: a checkbox that moves the triangle to the right.
#[derive(Default)]
struct NudgeRight {
    on: bool,
}

impl PanelExtension for NudgeRight {
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<SceneEdit> {
        let on = self.on;
        ui.checkbox(&mut self.on, "Nudge right")
            .changed()
            .then(|| SceneEdit::new(format!("nudge {on}"), move |s| s.offset[0] = 0.5))
    }

    fn reset(&mut self) {
        self.on = false;
    }
}

#[test]
fn an_extension_draws_its_widget_sends_its_edit_and_is_reset() {
    let (command_tx, command_rx) = crossbeam_channel::unbounded();
    let (_status_tx, status_rx) = crossbeam_channel::bounded(16);
    let panel = ControlPanel::with_extension(
        Params::default(),
        NudgeRight::default(),
        command_tx,
        status_rx,
    );
    let mut harness = Harness::new_ui_state(
        |ui, panel: &mut ControlPanel<NudgeRight>| panel.ui(ui),
        panel,
    );
    harness.run();
    assert_eq!(changes(&command_rx), [], "nothing sent before a click");
    harness.get_by_label("Nudge right").click();
    harness.run();
    let sent = changes(&command_rx);
    let [Control::Edit(edit)] = sent.as_slice() else {
        panic!("expected one edit, got {sent:?}");
    };
    let mut scene = Scene::new(Params::default());
    edit.apply(&mut scene);
    assert_eq!(scene.offset, [0.5, 0.0], "the edit runs on the scene");
    assert!(harness.state().extension.on);
    harness.get_by_label("Reset").click();
    harness.run();
    assert_eq!(changes(&command_rx), [Control::Reset]);
    assert!(
        !harness.state().extension.on,
        "Reset resets the extension too"
    );
}
