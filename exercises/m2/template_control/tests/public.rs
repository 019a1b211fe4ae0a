//! Public tests: `cargo nextest run -p ex_m2_template_control` (the pixel test needs a GPU
//! adapter; lavapipe is enough). No window is opened: egui_kittest drives the panel, and the
//! engine draws into an offscreen texture.

use std::time::Instant;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_winit_wgpu_template::capture::Image;
use egui_winit_wgpu_template::engine::{Engine, FrameOutcome};
use egui_winit_wgpu_template::messages::{Command, Control};
use egui_winit_wgpu_template::panel::ControlPanel;
use egui_winit_wgpu_template::scene::{self, BACKGROUND, START_SCALE, Scene};
use ex_m2_template_control::{Params, SIZE_LABEL, SizeControl, apply, control_panel, edit};
use gpu_context::{RenderGpu, wgpu};

const GREEN: [u8; 3] = [40, 200, 80];

fn still() -> scene::Params {
    scene::Params {
        colour: GREEN,
        speed_deg_per_s: 0.0,
        ..scene::Params::default()
    }
}

#[test]
fn template_control_public_slider_sends_a_size() {
    let (command_tx, commands) = crossbeam_channel::unbounded();
    let (_status_tx, status_rx) = crossbeam_channel::bounded(16);
    let mut harness = Harness::new_ui_state(
        |ui, panel: &mut ControlPanel<SizeControl>| panel.ui(ui),
        control_panel(still(), command_tx, status_rx),
    );
    harness.run();
    assert!(commands.try_recv().is_err(), "nothing sent before a change");
    harness
        .get_by_role_and_label(Role::Slider, SIZE_LABEL)
        .set_value_accesskit(50.0);
    harness.run();
    assert_eq!(harness.state().extension.params.size_percent, 50.0);
    let sent: Vec<Command> = commands.try_iter().collect();
    let [Command::Control { change, .. }] = sent.as_slice() else {
        panic!("expected one control change, got {sent:?}");
    };
    let mut scene = Scene::new(still());
    change.apply_to(&mut scene);
    assert!((scene.scale - 0.5 * START_SCALE).abs() < 1e-4, "{scene:?}");
}

#[test]
fn template_control_public_100_percent_changes_nothing() {
    let fresh = Scene::new(still());
    let mut scene = fresh.clone();
    apply(&Params::default(), &mut scene);
    assert_eq!(scene, fresh);
    apply(&Params { size_percent: 50.0 }, &mut scene);
    assert!((scene.scale - 0.5 * START_SCALE).abs() < 1e-4, "{scene:?}");
}

/// Equal within one step per channel.
fn is(image: &Image, x: u32, y: u32, want: [u8; 3]) -> bool {
    let got = image.pixel(x, y);
    (0..3).all(|i| got[i].abs_diff(want[i]) <= 1)
}

#[test]
fn template_control_public_half_size_on_screen() {
    let gpu = RenderGpu::open(RenderGpu::instance_without_display(), None)
        .unwrap_or_else(|e| panic!("this is a GPU test and it needs an adapter: {e}"));
    let (device, queue) = gpu.open_device("public test engine").expect("a device");
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let mut engine = Engine::offscreen(device, queue, format, [64, 64], still());
    let mut frame = |change: Control| {
        engine.handle(Command::Control {
            change,
            sent_at: Instant::now(),
        });
        let outcome = engine.draw_frame().expect("a frame");
        assert!(matches!(outcome, FrameOutcome::Drawn { .. }), "{outcome:?}");
        engine.read_pixels().expect("read-back")
    };
    // Pixel (32, 17) is 0.45 above the centre: inside at radius 0.6, outside at 0.3.
    let full = frame(Control::Edit(edit(Params::default())));
    assert!(is(&full, 32, 32, GREEN) && is(&full, 32, 17, GREEN));
    let half = frame(Control::Edit(edit(Params { size_percent: 50.0 })));
    assert!(is(&half, 32, 32, GREEN), "the centre is still inside");
    assert!(
        is(&half, 32, 17, BACKGROUND),
        "0.45 above the centre is outside at 50 %"
    );
    assert!(is(&half, 0, 0, BACKGROUND) && is(&half, 63, 63, BACKGROUND));
}
