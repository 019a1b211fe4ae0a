//! The engine without a window: draw into an offscreen texture, read it back, check pixels.

use std::time::Instant;

mod common;

use common::{offscreen_engine, spawn_engine, still};
use egui_winit_wgpu_template::capture::Image;
use egui_winit_wgpu_template::engine::{Engine, EngineOptions, FrameOutcome};
use egui_winit_wgpu_template::messages::{Command, Control, Status};
use egui_winit_wgpu_template::render_input::{Key, Pointer};
use egui_winit_wgpu_template::scene::BACKGROUND;
use gpu_context::wgpu;

const GREEN: [u8; 3] = [40, 200, 80];

fn frame(engine: &mut Engine) -> Image {
    match engine.draw_frame().expect("a frame") {
        FrameOutcome::Drawn { .. } => {}
        other => panic!("expected a frame, got {other:?}"),
    }
    engine.read_pixels().expect("read-back")
}

/// Equal within one step: an sRGB target encodes in hardware, and rounding may differ by one.
fn assert_colour(image: &Image, x: u32, y: u32, want: [u8; 3]) {
    let got = image.pixel(x, y);
    let close = (0..3).all(|i| got[i].abs_diff(want[i]) <= 1);
    assert!(close, "pixel ({x}, {y}) is {got:?}, expected {want:?}");
}

fn assert_triangle(image: &Image, colour: [u8; 3]) {
    let (w, h) = (image.width, image.height);
    assert_colour(image, w / 2, h / 2, colour);
    for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
        assert_colour(image, x, y, BACKGROUND);
    }
}

#[test]
fn inside_is_the_commanded_colour_and_outside_the_clear_colour() {
    for format in [
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureFormat::Bgra8UnormSrgb,
    ] {
        let mut e = offscreen_engine(format, [64, 48], still([255, 136, 0]));
        let image = frame(&mut e);
        assert_eq!((image.width, image.height), (64, 48));
        assert_triangle(&image, [255, 136, 0]);
    }
}

// ANCHOR: colour_test
#[test]
fn a_colour_command_shows_in_the_next_frame() {
    let mut e = offscreen_engine(
        wgpu::TextureFormat::Rgba8UnormSrgb,
        [64, 48],
        still([255, 136, 0]),
    );
    frame(&mut e);
    e.handle(Command::Control {
        change: Control::Colour(GREEN),
        sent_at: Instant::now(),
    });
    let FrameOutcome::Drawn { latencies, .. } = e.draw_frame().unwrap() else {
        panic!("expected a frame");
    };
    assert_eq!(latencies.len(), 1, "one change, one latency");
    assert_eq!(latencies[0].frames, 1, "the next frame shows the change");
    assert_triangle(&e.read_pixels().unwrap(), GREEN);
}
// ANCHOR_END: colour_test

#[test]
fn after_a_resize_the_frame_has_the_new_size() {
    let mut e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [64, 48], still(GREEN));
    frame(&mut e);
    e.handle(Command::Resize {
        width: 37,
        height: 91,
    });
    let image = frame(&mut e);
    assert_eq!((image.width, image.height), (37, 91));
    assert_triangle(&image, GREEN);
}

#[test]
fn a_minimised_window_draws_nothing_until_restored() {
    let mut e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [32, 32], still(GREEN));
    e.handle(Command::Resize {
        width: 0,
        height: 0,
    });
    assert!(!e.wants_frame());
    let outcome = e.draw_frame().unwrap();
    assert!(
        matches!(outcome, FrameOutcome::Skipped("minimised")),
        "{outcome:?}"
    );
    e.handle(Command::Resize {
        width: 32,
        height: 32,
    });
    assert_triangle(&frame(&mut e), GREEN);
}

#[test]
fn rotation_turns_the_triangle() {
    // The first corner points up; a point just below it is inside at 0°, outside at 180°.
    let mut e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [64, 64], still(GREEN));
    let near_top = (32, 32 - 15);
    let near_bottom = (32, 32 + 15);
    let image = frame(&mut e);
    assert_colour(&image, near_top.0, near_top.1, GREEN);
    assert_colour(&image, near_bottom.0, near_bottom.1, BACKGROUND);
    e.handle(Command::Control {
        change: Control::RotationDeg(180.0),
        sent_at: Instant::now(),
    });
    let image = frame(&mut e);
    assert_colour(&image, near_top.0, near_top.1, BACKGROUND);
    assert_colour(&image, near_bottom.0, near_bottom.1, GREEN);
    // The Left key turns by 15° more; twelve presses make a half turn back to the start.
    for _ in 0..12 {
        e.handle(Command::Key(Key::Left));
    }
    let image = frame(&mut e);
    assert_colour(&image, near_top.0, near_top.1, GREEN);
}

#[test]
fn dragging_with_the_mouse_moves_the_triangle() {
    let mut e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [100, 100], still(GREEN));
    for p in [
        Pointer::Moved { x: 50.0, y: 50.0 },
        Pointer::Pressed,
        Pointer::Moved { x: 80.0, y: 20.0 },
        Pointer::Released,
        // Moving without the button does not drag.
        Pointer::Moved { x: 10.0, y: 90.0 },
    ] {
        e.handle(Command::Pointer(p));
    }
    let image = frame(&mut e);
    assert_colour(&image, 80, 20, GREEN);
    assert_colour(&image, 40, 60, BACKGROUND);
}

#[test]
fn scrolling_scales_the_triangle() {
    let mut e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [100, 100], still(GREEN));
    // Near the top of the default triangle (radius 0.6 → 30 px): inside before, outside after
    // zooming out.
    assert_colour(&frame(&mut e), 50, 25, GREEN);
    e.handle(Command::Pointer(Pointer::Scrolled { lines: -10.0 }));
    assert_colour(&frame(&mut e), 50, 25, BACKGROUND);
}

#[test]
fn the_engine_thread_answers_and_is_joined_after_shutdown() {
    let e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [32, 32], still(GREEN));
    let running = spawn_engine(e, EngineOptions::default());
    running
        .commands
        .send(Command::Control {
            change: Control::Colour([1, 2, 3]),
            sent_at: Instant::now(),
        })
        .unwrap();
    let mut saw_frames = false;
    let mut saw_latency = false;
    while !(saw_frames && saw_latency) {
        match running.status.recv().expect("the engine keeps reporting") {
            Status::Frames(f) => {
                assert_eq!((f.width, f.height), (32, 32));
                saw_frames = true;
            }
            Status::Latency(l) => {
                assert!(l.frames >= 1);
                saw_latency = true;
            }
            Status::Error(e) => panic!("engine error: {e}"),
            _ => {}
        }
    }
    let status = running.shut_down();
    // Its end of the status channel is gone with it.
    while status.try_recv().is_ok() {}
    assert!(status.recv().is_err());
}

#[test]
fn the_engine_thread_ends_when_every_sender_is_dropped() {
    let e = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [16, 16], still(GREEN));
    let running = spawn_engine(e, EngineOptions::default());
    running
        .commands
        .send(Command::Control {
            change: Control::Paused(true),
            sent_at: Instant::now(),
        })
        .unwrap();
    drop(running.commands);
    running
        .handle
        .join()
        .expect("the engine thread ends cleanly");
}

#[test]
fn a_headless_engine_draws_n_frames_and_writes_a_screenshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frame.png");
    let e = offscreen_engine(wgpu::TextureFormat::Bgra8UnormSrgb, [48, 40], still(GREEN));
    let options = EngineOptions {
        stop_after: Some(3),
        screenshot: Some(path.clone()),
    };
    let running = spawn_engine(e, options);
    let statuses = running.statuses_until_finished();
    assert!(
        matches!(statuses.last(), Some(Status::Finished { frames: 3 })),
        "{statuses:?}"
    );
    assert!(
        statuses.contains(&Status::Screenshot(path.clone())),
        "the screenshot comes before Finished: {statuses:?}"
    );
    running.shut_down();
    let image = Image::read_png(&path).unwrap();
    assert_eq!((image.width, image.height), (48, 40));
    assert_triangle(&image, GREEN);
}
