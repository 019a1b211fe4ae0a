//! The viewer's panel without a window: egui_kittest paints it over the real renderer (lavapipe
//! in CI) and clicks its controls; each change shows in the next frame the viewer renders.

use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_winit_wgpu_template::extension::PanelExtension;
use point_cloud_renderer::Variant;
use point_cloud_renderer::viewer::{Viewer, ViewerPanel};

fn harness() -> Harness<'static, ViewerPanel> {
    let panel = ViewerPanel::new(Viewer::new((160, 90)).expect("an adapter"));
    Harness::new_ui_state(
        |ui, panel: &mut ViewerPanel| {
            panel.ui(ui);
        },
        panel,
    )
}

#[test]
fn gpu_the_point_count_and_the_variant_chosen_in_the_panel_are_what_renders_next() {
    let mut harness = harness();
    harness.step();
    let first = harness
        .state()
        .last()
        .expect("a frame after one paint")
        .clone();
    assert_eq!(first.points, 10_000);
    assert_eq!(first.variant, Variant::Fused);
    assert!(harness.query_by_label_contains("10000 points").is_some());

    harness.get_by_label("100K").click();
    harness.step();
    let more = harness.state().last().unwrap().clone();
    assert_eq!(more.points, 100_000);
    assert!(more.index > first.index);
    // Ten times the points on the same box cover more of the frame.
    assert!(
        more.covered() > first.covered(),
        "{} pixels covered with 100K points, {} with 10K",
        more.covered(),
        first.covered()
    );
    assert!(harness.query_by_label_contains("100000 points").is_some());

    harness.get_by_label("naive").click();
    harness.step();
    assert_eq!(harness.state().last().unwrap().variant, Variant::Naive);
}

#[test]
fn gpu_the_camera_orbits_until_the_orbit_is_switched_off() {
    let mut harness = harness();
    harness.step();
    std::thread::sleep(Duration::from_millis(200));
    harness.step();
    let a = harness.state().last().unwrap().clone();
    std::thread::sleep(Duration::from_millis(200));
    harness.step();
    let b = harness.state().last().unwrap().clone();
    assert_ne!(a.rgba, b.rgba, "the camera should have moved");

    harness.get_by_label("orbit").click();
    harness.step();
    assert!(!harness.state().settings().orbit);
    let c = harness.state().last().unwrap().clone();
    std::thread::sleep(Duration::from_millis(200));
    harness.step();
    let d = harness.state().last().unwrap().clone();
    assert_eq!(c.rgba, d.rgba, "a still camera draws the same frame");
    assert!(d.index > c.index);
}
