//! The engine thread's tracing spans: one per step, in the order the steps run.

mod common;

use std::sync::{Arc, Mutex};

use common::{offscreen_engine, spawn_engine, still};
use egui_winit_wgpu_template::engine::EngineOptions;
use egui_winit_wgpu_template::messages::Status;
use gpu_context::wgpu;
use tracing::span::Id;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{Layer, Registry};

/// Writes down the name of every span of this crate each time one is entered.
#[derive(Clone, Default)]
struct EnteredSpans(Arc<Mutex<Vec<&'static str>>>);

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for EnteredSpans {
    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        let span = ctx
            .span(id)
            .expect("an entered span is known to the registry");
        // Only ours: the GPU libraries may have spans of their own.
        if span
            .metadata()
            .target()
            .starts_with("egui_winit_wgpu_template")
        {
            self.0.lock().unwrap().push(span.name());
        }
    }
}

#[test]
fn each_frame_enters_input_update_render_in_order_on_the_engine_thread() {
    let entered = EnteredSpans::default();
    // Set on this thread only: `engine::spawn` hands it on to the engine's thread.
    let _subscriber = tracing::subscriber::set_default(Registry::default().with(entered.clone()));

    let engine = offscreen_engine(wgpu::TextureFormat::Rgba8Unorm, [16, 16], still([9, 9, 9]));
    let options = EngineOptions {
        stop_after: Some(3),
        screenshot: None,
    };
    let running = spawn_engine(engine, options);
    let statuses = running.statuses_until_finished();
    assert!(
        matches!(statuses.last(), Some(Status::Finished { frames: 3 })),
        "{statuses:?}"
    );
    running.shut_down();

    // Three frames of the three steps; then, finished, the engine waits for a command, and the
    // last turn of its loop takes in the Shutdown and draws nothing.
    let mut expected = ["input", "update", "render"].repeat(3);
    expected.push("input");
    assert_eq!(*entered.0.lock().unwrap(), expected);
}
