//! What the engine's GPU tests share: an engine drawing offscreen, and that engine on its thread.

use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use egui_winit_wgpu_template::engine::{self, Engine, EngineOptions};
use egui_winit_wgpu_template::messages::{Command, Status};
use egui_winit_wgpu_template::scene::Params;
use gpu_context::{RenderGpu, wgpu};

/// The start parameters with this colour and no spin, so every frame looks the same.
pub fn still(colour: [u8; 3]) -> Params {
    Params {
        colour,
        speed_deg_per_s: 0.0,
        ..Params::default()
    }
}

/// An engine that draws into an offscreen texture of `format` and `size` (no window, no display).
pub fn offscreen_engine(format: wgpu::TextureFormat, size: [u32; 2], params: Params) -> Engine {
    let gpu = RenderGpu::open(RenderGpu::instance_without_display(), None)
        .unwrap_or_else(|e| panic!("this is a GPU test and it needs an adapter: {e}"));
    let (device, queue) = gpu.open_device("test engine").expect("a device");
    Engine::offscreen(device, queue, format, size, params)
}

/// An engine running on its own thread, and the test's ends of its two channels.
pub struct EngineThread {
    pub commands: Sender<Command>,
    pub status: Receiver<Status>,
    pub handle: JoinHandle<()>,
}

/// Starts `engine` on its thread as the app does, with a waker that does nothing.
pub fn spawn_engine(engine: Engine, options: EngineOptions) -> EngineThread {
    let (commands, command_rx) = crossbeam_channel::unbounded();
    let (status_tx, status) = crossbeam_channel::bounded(64);
    let handle = engine::spawn(engine, command_rx, status_tx, Box::new(|| {}), options)
        .expect("the engine thread starts");
    EngineThread {
        commands,
        status,
        handle,
    }
}

impl EngineThread {
    /// What a headless run reports, up to and including [`Status::Finished`]. An engine error
    /// fails the test.
    pub fn statuses_until_finished(&self) -> Vec<Status> {
        let mut statuses = Vec::new();
        loop {
            match self
                .status
                .recv()
                .expect("the engine reports until it has finished")
            {
                Status::Error(e) => panic!("engine error: {e}"),
                status => {
                    let finished = matches!(status, Status::Finished { .. });
                    statuses.push(status);
                    if finished {
                        return statuses;
                    }
                }
            }
        }
    }

    /// Sends [`Command::Shutdown`] and waits for the thread to end; returns the status channel's
    /// receiving end, whose sender ended with the thread.
    pub fn shut_down(self) -> Receiver<Status> {
        self.commands.send(Command::Shutdown).unwrap();
        self.handle.join().expect("the engine thread ends cleanly");
        self.status
    }
}
