//! Keys from winit mapped to the engine's keys, and the scene's reactions (no GPU, no window).

use egui_winit_wgpu_template::input::map_key;
use egui_winit_wgpu_template::messages::Control;
use egui_winit_wgpu_template::render_input::{Key, Pointer};
use egui_winit_wgpu_template::scene::{Params, Scene, shader_colour};
use winit::keyboard::{Key as WinitKey, NamedKey, SmolStr};

#[test]
fn keys_map_and_toggles_do_not_repeat() {
    let named = |k| WinitKey::Named(k);
    assert_eq!(map_key(&named(NamedKey::ArrowLeft), false), Some(Key::Left));
    assert_eq!(
        map_key(&named(NamedKey::ArrowLeft), true),
        Some(Key::Left),
        "turning repeats"
    );
    assert_eq!(map_key(&named(NamedKey::Space), false), Some(Key::Space));
    assert_eq!(
        map_key(&named(NamedKey::Space), true),
        None,
        "a held Space toggles once"
    );
    assert_eq!(
        map_key(&WinitKey::Character(SmolStr::new("R")), false),
        Some(Key::Reset)
    );
    assert_eq!(
        map_key(&WinitKey::Character(SmolStr::new("q")), false),
        None
    );
}

#[test]
fn keys_change_the_scene_within_limits() {
    let mut scene = Scene::new(Params::default());
    scene.key(Key::Space);
    assert!(scene.params.paused);
    for _ in 0..100 {
        scene.key(Key::Up);
    }
    assert_eq!(scene.params.speed_deg_per_s, 720.0, "speed is capped");
    scene.key(Key::Reset);
    assert_eq!(scene, Scene::new(Params::default()));
}

#[test]
fn a_reset_from_the_panel_forgets_mouse_and_keys() {
    let mut scene = Scene::new(Params::default());
    scene.pointer(Pointer::Pressed, [100, 100]);
    scene.pointer(Pointer::Moved { x: 10.0, y: 10.0 }, [100, 100]);
    scene.pointer(Pointer::Moved { x: 60.0, y: 10.0 }, [100, 100]);
    assert_eq!(
        scene.offset,
        [1.0, 0.0],
        "50 px of 100 is one clip-space unit"
    );
    Control::Reset.apply_to(&mut scene);
    assert_eq!(scene.offset, [0.0, 0.0]);
}

#[test]
fn colours_are_linearised_only_for_srgb_targets() {
    assert_eq!(shader_colour([255, 0, 51], false), [1.0, 0.0, 0.2, 1.0]);
    let linear = shader_colour([255, 0, 51], true);
    assert_eq!(linear[0], 1.0);
    assert!((linear[2] - 0.0331).abs() < 1e-3, "{linear:?}");
}
