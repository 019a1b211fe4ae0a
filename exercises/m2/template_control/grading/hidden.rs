//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//!
//! Panel tests drive the real template panel with egui_kittest (no window, no GPU). Pixel tests
//! draw 64 × 64 frames with the template's engine into an offscreen texture and check pixels
//! whose colour depends only on the triangle's size (no golden images).

use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_winit_wgpu_template::capture::Image;
use egui_winit_wgpu_template::engine::{Engine, FrameOutcome};
use egui_winit_wgpu_template::messages::{Command, Control, Status};
use egui_winit_wgpu_template::panel::ControlPanel;
use egui_winit_wgpu_template::scene::{self, BACKGROUND, START_SCALE, Scene};
use ex_m2_template_control::{
    Params, SIZE_LABEL, SizeControl, apply, control_panel, edit as size_edit,
};
use gpu_context::{RenderGpu, wgpu};

const GREEN: [u8; 3] = [40, 200, 80];
const SIZE: u32 = 64;

// ---- the panel -------------------------------------------------------------------------------

struct Panel {
    harness: Harness<'static, ControlPanel<SizeControl>>,
    commands: Receiver<Command>,
    _status: Sender<Status>,
}

fn panel() -> Panel {
    let (command_tx, commands) = crossbeam_channel::unbounded();
    let (status, status_rx) = crossbeam_channel::bounded(16);
    let panel = control_panel(still(), command_tx, status_rx);
    let mut harness = Harness::new_ui_state(
        |ui, panel: &mut ControlPanel<SizeControl>| panel.ui(ui),
        panel,
    );
    harness.run();
    Panel {
        harness,
        commands,
        _status: status,
    }
}

impl Panel {
    fn set_size(&mut self, percent: f64) {
        self.harness
            .get_by_role_and_label(Role::Slider, SIZE_LABEL)
            .set_value_accesskit(percent);
        self.harness.run();
    }

    fn size(&self) -> f32 {
        self.harness.state().extension.params.size_percent
    }

    fn sent(&self) -> Vec<Command> {
        self.commands.try_iter().collect()
    }
}

/// The scene edits among `commands`; any other command fails the test.
fn edits(commands: &[Command]) -> Vec<Control> {
    commands
        .iter()
        .map(|c| match c {
            Command::Control { change, .. } => change.clone(),
            other => panic!("the panel sent {other:?}"),
        })
        .collect()
}

fn scale_after(change: &Control) -> f32 {
    let mut scene = Scene::new(still());
    change.apply_to(&mut scene);
    scene.scale
}

fn near(got: f32, want: f32) -> bool {
    (got - want).abs() <= 1e-4
}

// ---- the engine --------------------------------------------------------------------------------

fn still() -> scene::Params {
    scene::Params {
        colour: GREEN,
        speed_deg_per_s: 0.0,
        ..scene::Params::default()
    }
}

fn engine() -> Engine {
    let gpu = RenderGpu::open(RenderGpu::instance_without_display(), None)
        .unwrap_or_else(|e| panic!("this is a GPU test and it needs an adapter: {e}"));
    let (device, queue) = gpu.open_device("hidden test engine").expect("a device");
    Engine::offscreen(
        device,
        queue,
        wgpu::TextureFormat::Rgba8Unorm,
        [SIZE, SIZE],
        still(),
    )
}

fn frame(engine: &mut Engine) -> Image {
    match engine.draw_frame().expect("a frame") {
        FrameOutcome::Drawn { .. } => {}
        other => panic!("expected a frame, got {other:?}"),
    }
    engine.read_pixels().expect("read-back")
}

fn send(engine: &mut Engine, change: Control) {
    engine.handle(Command::Control {
        change,
        sent_at: Instant::now(),
    });
}

fn at_size(engine: &mut Engine, percent: f32) -> Image {
    send(
        engine,
        Control::Edit(size_edit(Params {
            size_percent: percent,
        })),
    );
    frame(engine)
}

/// The pixel that contains clip-space point (x, y) (y up, the image's height is 2 units).
fn at((x, y): (f32, f32)) -> (u32, u32) {
    let half = SIZE as f32 / 2.0;
    (((x + 1.0) * half) as u32, ((1.0 - y) * half) as u32)
}

fn is(image: &Image, (x, y): (u32, u32), want: [u8; 3]) -> bool {
    let got = image.pixel(x, y);
    (0..3).all(|i| got[i].abs_diff(want[i]) <= 1)
}

fn assert_pixel(image: &Image, p: (u32, u32), want: [u8; 3], what: &str) {
    assert!(
        is(image, p, want),
        "{what}: pixel {p:?} is {:?}, expected {want:?}",
        image.pixel(p.0, p.1)
    );
}

fn coverage(image: &Image) -> usize {
    // For the grader: the share of the picture the shape covers (within 1 % of the reference).
    let covered = coverage_count(image);
    grade_record!("coverage", covered as f64 / f64::from(SIZE * SIZE), 0.01);
    covered
}

fn coverage_count(image: &Image) -> usize {
    (0..SIZE)
        .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
        .filter(|&p| is(image, p, GREEN))
        .count()
}

fn assert_corners_are_background(image: &Image, what: &str) {
    for p in [(0, 0), (SIZE - 1, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1)] {
        assert_pixel(image, p, BACKGROUND, what);
    }
}

// The triangle points up from the centre: at radius r its tip is at y = r, its base at y = -r/2.
const CENTRE: (f32, f32) = (0.0, 0.0);
/// Inside at 100 % (radius 0.6), outside at 50 % (0.3).
const UPPER: (f32, f32) = (0.0, 0.45);
/// Outside at 100 %, inside from about 130 % (radius 0.78) up.
const HIGH: (f32, f32) = (0.0, 0.75);
/// Below the base up to about 170 % (radius 1.03), inside at 200 % (base at y = -0.6).
const LOWER: (f32, f32) = (0.0, -0.5);

// ---- tests -------------------------------------------------------------------------------------

#[test]
fn template_control_hidden_slider_is_found_by_its_label() {
    let mut p = panel();
    p.harness.run();
    p.harness.run();
    let slider = p.harness.get_by_role_and_label(Role::Slider, SIZE_LABEL);
    assert_eq!(
        slider.accesskit_node().numeric_value(),
        Some(100.0),
        "the slider starts at 100 %"
    );
    assert_eq!(p.size(), 100.0);
    assert!(
        p.sent().is_empty(),
        "nothing may be sent until the user moves the slider"
    );
    // The template's own widgets are still there and still work.
    p.harness
        .get_by_role_and_label(Role::Slider, "Speed (°/s)")
        .set_value_accesskit(90.0);
    p.harness.run();
    assert_eq!(edits(&p.sent()), [Control::SpeedDegPerS(90.0)]);
    grade_ok!("template_control_hidden_slider_is_found_by_its_label");
}

#[test]
fn template_control_hidden_moving_the_slider_sends_one_edit() {
    let mut p = panel();
    p.set_size(40.0);
    assert_eq!(p.size(), 40.0, "the slider edits params.size_percent");
    let sent = edits(&p.sent());
    assert_eq!(sent.len(), 1, "one change, one message: {sent:?}");
    assert!(matches!(sent[0], Control::Edit(_)), "{sent:?}");
    assert!(
        near(scale_after(&sent[0]), 0.4 * START_SCALE),
        "40 % must give a radius of {}, got {}",
        0.4 * START_SCALE,
        scale_after(&sent[0])
    );
    assert_eq!(
        p.harness.state().params,
        still(),
        "the template's own parameters stay as they were"
    );
    p.harness.run();
    p.set_size(40.0);
    assert!(p.sent().is_empty(), "the same value again is no change");
    grade_ok!("template_control_hidden_moving_the_slider_sends_one_edit");
}

#[test]
fn template_control_hidden_slider_stops_at_its_ends() {
    let mut p = panel();
    p.set_size(500.0);
    assert_eq!(p.size(), 200.0, "the slider stops at 200 %");
    let sent = edits(&p.sent());
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(near(scale_after(&sent[0]), 2.0 * START_SCALE));
    p.set_size(-20.0);
    assert_eq!(p.size(), 10.0, "the slider stops at 10 %");
    let sent = edits(&p.sent());
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(near(scale_after(&sent[0]), 0.1 * START_SCALE));
    grade_ok!("template_control_hidden_slider_stops_at_its_ends");
}

#[test]
fn template_control_hidden_reset_brings_back_the_start_size() {
    let mut p = panel();
    p.set_size(50.0);
    p.harness.get_by_label("Reset").click();
    p.harness.run();
    assert_eq!(p.size(), 100.0, "Reset puts the slider back at 100 %");
    let sent = edits(&p.sent());
    assert!(
        matches!(sent.as_slice(), [Control::Edit(_), Control::Reset]),
        "{sent:?}"
    );
    let mut scene = Scene::new(still());
    for change in &sent {
        change.apply_to(&mut scene);
    }
    assert_eq!(scene, Scene::new(still()));
    grade_ok!("template_control_hidden_reset_brings_back_the_start_size");
}

#[test]
fn template_control_hidden_apply_changes_only_the_size() {
    let fresh = Scene::new(still());
    let mut scene = fresh.clone();
    apply(&Params::default(), &mut scene);
    grade_record!("scene", &scene, 1e-6);
    assert_eq!(scene, fresh, "100 % leaves a fresh scene exactly as it is");

    let mut moved = Scene::new(still());
    moved.offset = [0.25, -0.5];
    moved.spin_deg = 30.0;
    moved.params.rotation_deg = 12.0;
    moved.params.colour = [1, 2, 3];
    let mut scene = moved.clone();
    apply(&Params { size_percent: 50.0 }, &mut scene);
    grade_record!("scene", &scene, 1e-6);
    assert!(near(scene.scale, 0.5 * START_SCALE), "{}", scene.scale);
    scene.scale = moved.scale;
    assert_eq!(scene, moved, "only the size may change");
    grade_ok!("template_control_hidden_apply_changes_only_the_size");
}

#[test]
fn template_control_hidden_apply_clamps_and_ignores_nan() {
    for (percent, want) in [
        (1000.0, 2.0),
        (200.0, 2.0),
        (250.0, 2.0),
        (f32::INFINITY, 2.0),
        (10.0, 0.1),
        (0.0, 0.1),
        (-30.0, 0.1),
        (f32::NEG_INFINITY, 0.1),
        (75.0, 0.75),
        (f32::NAN, 1.0),
    ] {
        let mut scene = Scene::new(still());
        scene.scale = 0.123; // as the mouse wheel may have left it
        apply(
            &Params {
                size_percent: percent,
            },
            &mut scene,
        );
        grade_record!("scene", &scene, 1e-6);
        assert!(
            near(scene.scale, want * START_SCALE),
            "{percent} %: radius {}, expected {}",
            scene.scale,
            want * START_SCALE
        );
    }
    grade_ok!("template_control_hidden_apply_clamps_and_ignores_nan");
}

#[test]
fn template_control_hidden_offscreen_half_size() {
    let mut e = engine();
    let template = frame(&mut e);
    let default = at_size(&mut e, 100.0);
    assert!(
        default == template,
        "at 100 % the frame must be the template's, pixel for pixel"
    );
    assert_pixel(&default, at(CENTRE), GREEN, "100 %, centre");
    assert_pixel(&default, at(UPPER), GREEN, "100 %, 0.45 above the centre");
    let half = at_size(&mut e, 50.0);
    assert_pixel(&half, at(CENTRE), GREEN, "50 %, centre");
    assert_pixel(&half, at(UPPER), BACKGROUND, "50 %, 0.45 above the centre");
    assert_corners_are_background(&half, "50 %");
    let ratio = coverage(&half) as f64 / coverage(&default) as f64;
    assert!(
        (0.2..=0.3).contains(&ratio),
        "half the size covers a quarter of the pixels, not {ratio:.2} of them"
    );
    grade_ok!("template_control_hidden_offscreen_half_size");
}

#[test]
fn template_control_hidden_offscreen_larger_sizes() {
    let mut e = engine();
    let default = frame(&mut e);
    assert_pixel(
        &default,
        at(HIGH),
        BACKGROUND,
        "100 %, 0.75 above the centre",
    );
    let large = at_size(&mut e, 150.0);
    assert_pixel(&large, at(HIGH), GREEN, "150 %, 0.75 above the centre");
    assert_pixel(&large, at(LOWER), BACKGROUND, "150 %, 0.5 below the centre");
    assert_corners_are_background(&large, "150 %");
    let largest = at_size(&mut e, 200.0);
    assert_pixel(&largest, at(LOWER), GREEN, "200 %, 0.5 below the centre");
    assert_corners_are_background(&largest, "200 %");
    let ratio = coverage(&largest) as f64 / coverage(&default) as f64;
    assert!(
        (3.5..=4.3).contains(&ratio),
        "twice the size covers about four times the pixels, not {ratio:.2} times"
    );
    grade_ok!("template_control_hidden_offscreen_larger_sizes");
}

#[test]
fn template_control_hidden_offscreen_smallest_size() {
    let mut e = engine();
    let tiny = at_size(&mut e, 10.0);
    assert_pixel(&tiny, at(CENTRE), GREEN, "10 %, centre");
    for (what, p) in [
        ("above", (0.0, 0.15)),
        ("below", (0.0, -0.15)),
        ("left of", (-0.15, 0.0)),
        ("right of", (0.15, 0.0)),
    ] {
        assert_pixel(
            &tiny,
            at(p),
            BACKGROUND,
            &format!("10 %, 0.15 {what} the centre"),
        );
    }
    let pixels = coverage(&tiny);
    assert!(
        (1..=16).contains(&pixels),
        "a 10 % triangle covers a few pixels, not {pixels}"
    );
    // Below the range is the same as its end, never an empty frame.
    let below = at_size(&mut e, 1.0);
    assert!(below == tiny, "1 % must draw as 10 % does");
    grade_ok!("template_control_hidden_offscreen_smallest_size");
}

/// Hands the engine what the panel sent, as the engine's thread would, and draws a frame.
fn drawn_after(p: &Panel, e: &mut Engine) -> Image {
    for command in p.sent() {
        assert!(e.handle(command));
    }
    frame(e)
}

#[test]
fn template_control_hidden_panel_to_pixels() {
    let mut p = panel();
    let mut e = engine();
    let start = drawn_after(&p, &mut e);
    assert_pixel(&start, at(UPPER), GREEN, "start, 0.45 above the centre");
    p.set_size(50.0);
    let small = drawn_after(&p, &mut e);
    assert_pixel(&small, at(CENTRE), GREEN, "50 % from the panel, centre");
    assert_pixel(&small, at(UPPER), BACKGROUND, "50 % from the panel, above");
    p.set_size(200.0);
    let big = drawn_after(&p, &mut e);
    assert_pixel(&big, at(LOWER), GREEN, "200 % from the panel, below");
    p.harness.get_by_label("Reset").click();
    p.harness.run();
    let reset = drawn_after(&p, &mut e);
    assert!(
        reset == start,
        "after Reset the frame is the start frame again"
    );
    grade_ok!("template_control_hidden_panel_to_pixels");
}
