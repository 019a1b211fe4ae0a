//! The engine's own thread: a loop that drains commands, draws, and reports.

use std::path::PathBuf;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use super::{Engine, FrameOutcome};
use crate::messages::{Command, FrameStats, Status};

/// Called after each status message, to wake the main thread's event loop (with winit: an
/// `EventLoopProxy::send_event`). Tests pass a closure that does nothing.
pub type Waker = Box<dyn Fn() + Send>;

/// What a headless run asks of the engine.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// Draw this many frames, report [`Status::Finished`], then wait for [`Command::Shutdown`].
    pub stop_after: Option<u32>,
    /// With `stop_after`: write the last frame to this PNG file.
    pub screenshot: Option<PathBuf>,
}

/// How often the engine reports its frame rate.
const REPORT_EVERY: Duration = Duration::from_millis(250);

// ANCHOR: spawn
/// Moves `engine` onto a new thread named "render engine". The thread runs until it receives
/// [`Command::Shutdown`] or the command channel is closed, then drops the engine (its surface,
/// device and pipeline) and ends; join the handle to wait for that.
pub fn spawn(
    engine: Engine,
    commands: Receiver<Command>,
    status: Sender<Status>,
    wake: Waker,
    options: EngineOptions,
) -> std::io::Result<JoinHandle<()>> {
    // A subscriber set with `set_default` (a test's, a Chrome trace's) belongs to one thread: hand
    // the spawning thread's to the engine's, or the engine's spans would go nowhere.
    let trace = tracing::dispatcher::get_default(tracing::Dispatch::clone);
    std::thread::Builder::new()
        .name("render engine".into())
        .spawn(move || {
            let _trace = tracing::dispatcher::set_default(&trace);
            run(engine, &commands, &Reporter { status, wake }, &options)
        })
}
// ANCHOR_END: spawn

struct Reporter {
    status: Sender<Status>,
    wake: Waker,
}

impl Reporter {
    /// Never blocks the engine for long: routine reports are dropped if the panel is behind.
    fn send(&self, status: Status) {
        let important = !matches!(status, Status::Frames(_));
        let sent = if important {
            self.status
                .send_timeout(status, Duration::from_secs(1))
                .is_ok()
        } else {
            self.status.try_send(status).is_ok()
        };
        if sent {
            (self.wake)();
        }
    }
}

// ANCHOR: loop
// ANCHOR: loop_head
fn run(
    mut engine: Engine,
    commands: &Receiver<Command>,
    report: &Reporter,
    options: &EngineOptions,
) {
    let mut last_frame = Instant::now();
    let mut window_start = Instant::now();
    let mut window_frames = 0u32;
    let mut finished = false;
    loop {
        // Headless runs draw every frame until they are done; otherwise draw only when
        // something would change. With nothing to draw, block until a command arrives
        // (waiting costs no CPU); with something to draw, take what is there and go on.
        let busy = !finished && (options.stop_after.is_some() || engine.wants_frame());
        let first = if busy {
            None
        } else {
            match commands.recv() {
                Ok(command) => Some(command),
                Err(_) => return, // every sender is gone: nobody can ask for anything again
            }
        };
        // ANCHOR_END: loop_head
        // ANCHOR: step_spans
        // One span per step, so a trace shows where a frame's time goes (module 4).
        let input = tracing::info_span!("input").entered();
        for command in first.into_iter().chain(commands.try_iter()) {
            if !engine.handle(command) {
                return;
            }
        }
        drop(input);
        if finished || !engine.wants_frame() && options.stop_after.is_none() {
            continue;
        }
        let update = tracing::info_span!("update").entered();
        let now = Instant::now();
        engine.advance((now - last_frame).as_secs_f32());
        last_frame = now;
        let last = options
            .stop_after
            .is_some_and(|n| engine.frames() + 1 == u64::from(n));
        if last && let Some(path) = &options.screenshot {
            engine.handle(Command::Screenshot(path.clone()));
        }
        drop(update);
        let drawn = tracing::info_span!("render", frame = engine.frames() + 1)
            .in_scope(|| engine.draw_frame());
        // ANCHOR_END: step_spans
        match drawn {
            Ok(FrameOutcome::Drawn {
                latencies,
                screenshot,
            }) => {
                for latency in latencies {
                    report.send(Status::Latency(latency));
                }
                match screenshot {
                    Some(Ok(path)) => report.send(Status::Screenshot(path)),
                    Some(Err(e)) => report.send(Status::Error(format!(
                        "screenshot failed: {}",
                        crate::error::chain(&e)
                    ))),
                    None => {}
                }
                window_frames += 1;
                let elapsed = window_start.elapsed();
                if elapsed >= REPORT_EVERY || engine.frames() == 1 || last {
                    let [width, height] = engine.size();
                    report.send(Status::Frames(FrameStats {
                        frames: engine.frames(),
                        fps: window_frames as f32 / elapsed.as_secs_f32(),
                        frame_ms: elapsed.as_secs_f32() * 1e3 / window_frames as f32,
                        width,
                        height,
                        paused: engine.scene.params.paused,
                    }));
                    window_start = Instant::now();
                    window_frames = 0;
                }
                if last {
                    report.send(Status::Finished {
                        frames: engine.frames(),
                    });
                    finished = true;
                }
            }
            // Nothing was drawn (occluded, reconfigured): try again shortly, without spinning.
            Ok(FrameOutcome::Skipped(_)) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                report.send(Status::Error(crate::error::chain(&e)));
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}
// ANCHOR_END: loop
