//! The main thread: one winit event loop, two windows. Panel events go to egui; render-window
//! events become commands for the engine thread; the engine's status comes back on a channel,
//! and an `EventLoopProxy` wakes the loop when it does.

use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::Sender;
use gpu_context::{AdapterReport, ColorSpace, RenderGpu, surface_config};
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};

use crate::config::{Config, screenshot_paths};
use crate::engine::{self, Engine, EngineOptions};
use crate::error::RunError;
use crate::extension::{NoExtension, PanelExtension};
use crate::input::{RenderWindowAction, translate};
use crate::measure::Measurement;
use crate::messages::{Command, Status};
use crate::panel::ControlPanel;
use crate::panel_frame::{RETRY_AFTER, panel_present_mode};
use crate::panel_window::PanelWindow;

/// The user event that wakes the event loop: "the engine sent a status message".
#[derive(Debug, Clone, Copy)]
pub struct EngineWoke;

/// What a run did, for the caller (and for tests).
#[derive(Debug, Default)]
pub struct RunReport {
    /// Files written: screenshots and measurement results.
    pub files: Vec<PathBuf>,
    /// Frames the engine reported drawing.
    pub frames: u64,
    /// The engine's thread ended and was joined.
    pub engine_joined: bool,
}

/// Width of the control panel window, in physical pixels.
pub const PANEL_SIZE: [u32; 2] = [320, 420];

// ANCHOR: run
/// Opens the two windows and runs until one is closed (or a headless run is done).
pub fn run(config: Config) -> Result<RunReport, RunError> {
    run_with(config, Box::new(NoExtension))
}

/// [`run`], with `extension`'s widgets in the control panel.
pub fn run_with(config: Config, extension: Box<dyn PanelExtension>) -> Result<RunReport, RunError> {
    let event_loop = EventLoop::<EngineWoke>::with_user_event()
        .build()
        .map_err(RunError::EventLoop)?;
    // Nothing to do between events: sleep until the next one.
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut app = App::new(config, extension, event_loop.create_proxy());
    event_loop
        .run_app(&mut app)
        .map_err(RunError::EventLoopFailed)?;
    app.finish()
}
// ANCHOR_END: run

// ANCHOR: app_state
/// Everything the main thread owns while the windows are open.
struct Running {
    panel_window: PanelWindow,
    panel: ControlPanel<Box<dyn PanelExtension>>,
    render_window: Arc<Window>,
    /// The sending end of the engine's command channel (the panel holds a clone).
    commands: Sender<Command>,
    /// The engine's thread; joined on the way out.
    engine: Option<JoinHandle<()>>,
    adapter: AdapterReport,
    /// The two surfaces' present modes, recorded with a measurement.
    present_modes: String,
}

struct App {
    config: Config,
    /// Moves into the panel when the windows open.
    extension: Option<Box<dyn PanelExtension>>,
    proxy: EventLoopProxy<EngineWoke>,
    running: Option<Running>,
    measurement: Option<Measurement>,
    /// A headless run: the engine has drawn its frames; the panel takes its screenshot next.
    engine_finished: bool,
    report: RunReport,
    error: Option<RunError>,
    /// "ready" was printed: both windows have drawn (tests wait for it).
    announced: bool,
    /// When egui asked for the panel to be drawn again.
    panel_repaint_at: Option<Instant>,
}
// ANCHOR_END: app_state

impl App {
    fn new(
        config: Config,
        extension: Box<dyn PanelExtension>,
        proxy: EventLoopProxy<EngineWoke>,
    ) -> Self {
        Self {
            config,
            extension: Some(extension),
            proxy,
            running: None,
            measurement: None,
            engine_finished: false,
            report: RunReport::default(),
            error: None,
            announced: false,
            panel_repaint_at: None,
        }
    }

    fn finish(mut self) -> Result<RunReport, RunError> {
        self.shutdown();
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(self.report),
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: RunError) {
        self.error.get_or_insert(error);
        event_loop.exit();
    }

    // ANCHOR: start
    /// Creates both windows, their surfaces and devices, and starts the engine thread.
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<Running, RunError> {
        let panel_attrs = Window::default_attributes()
            .with_title("Control panel")
            .with_inner_size(PhysicalSize::new(PANEL_SIZE[0], PANEL_SIZE[1]))
            .with_position(PhysicalPosition::new(0, 0));
        let render_attrs = Window::default_attributes()
            .with_title("Render window")
            .with_inner_size(PhysicalSize::new(self.config.width, self.config.height))
            // Without a window manager (Xvfb) windows would overlap at (0, 0).
            .with_position(PhysicalPosition::new(PANEL_SIZE[0] as i32 + 20, 0));
        let panel_window = Arc::new(
            event_loop
                .create_window(panel_attrs)
                .map_err(RunError::Window)?,
        );
        let render_window = Arc::new(
            event_loop
                .create_window(render_attrs)
                .map_err(RunError::Window)?,
        );

        // ANCHOR: start_devices
        let instance = RenderGpu::instance_for_display(Box::new(event_loop.owned_display_handle()));
        let render_surface = instance
            .create_surface(render_window.clone())
            .map_err(RunError::Surface)?;
        let panel_surface = instance
            .create_surface(panel_window.clone())
            .map_err(RunError::Surface)?;
        let gpu = RenderGpu::open(instance.clone(), Some(&render_surface))?;

        // One device per drawing thread: each thread owns what it draws with.
        let (panel_device, panel_queue) = gpu.open_device("panel device")?;
        let (engine_device, engine_queue) = gpu.open_device("engine device")?;
        let adapter = gpu.report(&engine_device);
        // ANCHOR_END: start_devices

        let size = panel_window.inner_size();
        let panel_config = surface_config(
            &panel_surface,
            &gpu.adapter,
            size.width,
            size.height,
            ColorSpace::Gamma,
        )?;
        // The panel is drawn on the event loop's thread, which must never wait for the display.
        let mut panel_config = panel_config;
        panel_config.present_mode =
            panel_present_mode(&panel_surface.get_capabilities(&gpu.adapter).present_modes);
        let size = render_window.inner_size();
        let render_config = surface_config(
            &render_surface,
            &gpu.adapter,
            size.width,
            size.height,
            ColorSpace::Srgb,
        )?;
        let present_modes = format!(
            "present modes: panel {:?}, render window {:?}",
            panel_config.present_mode, render_config.present_mode
        );

        // ANCHOR: start_channels
        // Commands: unbounded, so the event loop never waits on the engine.
        // Status: bounded, and the engine drops routine reports when it is full.
        let (command_tx, command_rx) = crossbeam_channel::unbounded();
        let (status_tx, status_rx) = crossbeam_channel::bounded(256);
        // ANCHOR_END: start_channels

        let (recreate_instance, recreate_window) = (instance, render_window.clone());
        let recreate: engine::SurfaceFactory =
            Box::new(move || recreate_instance.create_surface(recreate_window.clone()));
        let engine = Engine::for_surface(
            engine_device,
            engine_queue,
            render_surface,
            render_config,
            recreate,
            self.config.params,
        );
        let proxy = self.proxy.clone();
        let wake: engine::Waker = Box::new(move || {
            // Fails only when the event loop has already ended: nobody to wake.
            let _ = proxy.send_event(EngineWoke);
        });
        let options = EngineOptions {
            stop_after: self.config.frames,
            screenshot: self
                .config
                .screenshot
                .as_deref()
                .map(|p| screenshot_paths(p).0),
        };
        let handle = engine::spawn(engine, command_rx, status_tx, wake, options)
            .map_err(RunError::EngineThread)?;

        Ok(Running {
            panel_window: PanelWindow::new(
                panel_window,
                panel_surface,
                panel_config,
                panel_device,
                panel_queue,
            ),
            panel: ControlPanel::with_extension(
                self.config.params,
                self.extension
                    .take()
                    .unwrap_or_else(|| Box::new(NoExtension)),
                command_tx.clone(),
                status_rx,
            ),
            render_window,
            commands: command_tx,
            engine: Some(handle),
            adapter,
            present_modes,
        })
    }
    // ANCHOR_END: start

    // ANCHOR: shutdown
    /// Stops the engine and waits for its thread. Safe to call twice.
    fn shutdown(&mut self) {
        let Some(mut running) = self.running.take() else {
            return;
        };
        // The engine may already be gone (it crashed): then the send fails, and that is fine.
        let _ = running.commands.send(Command::Shutdown);
        if let Some(handle) = running.engine.take() {
            match handle.join() {
                Ok(()) => self.report.engine_joined = true,
                Err(_) => {
                    self.error.get_or_insert(RunError::EnginePanicked);
                }
            }
        }
        // Now the windows can go: nothing on another thread draws into them any more.
    }
    // ANCHOR_END: shutdown

    fn paint_panel(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let screenshot = match (&self.config.screenshot, self.engine_finished) {
            (Some(path), true) => Some(screenshot_paths(path).1),
            _ => None,
        };
        match running
            .panel_window
            .paint(&mut running.panel, screenshot.as_deref())
        {
            Ok(frame) => {
                if !frame.drawn && screenshot.is_some() {
                    // The surface had no image: the screenshot waits for the next frame.
                    let retry = frame.repaint_after.unwrap_or(RETRY_AFTER);
                    self.panel_repaint_at = Some(Instant::now() + retry);
                    return;
                }
                let repaint = frame.repaint_after;
                if !self.announced && self.report.frames > 0 {
                    // Both windows have drawn: tests wait for this line before they poke at them.
                    self.announced = true;
                    println!("ready");
                    use std::io::Write as _;
                    let _ = std::io::stdout().flush();
                }
                if let Some(m) = self.measurement.as_mut() {
                    // While measuring, the panel redraws every frame, as during a slider drag.
                    if frame.drawn {
                        m.record_panel_frame();
                    }
                    running.panel_window.window.request_redraw();
                } else if let Some(delay) = repaint {
                    if delay.is_zero() {
                        running.panel_window.window.request_redraw();
                    } else {
                        // egui wants a frame later (a blinking cursor, a tooltip's delay).
                        self.panel_repaint_at = Some(Instant::now() + delay);
                    }
                }
            }
            Err(e) => return self.fail(event_loop, RunError::Panel(e)),
        }
        if self.config.frames.is_some() && self.engine_finished {
            if let Some(path) = screenshot {
                self.report.files.push(path);
            }
            if let Err(e) = self.write_screenshot_sidecars() {
                return self.fail(event_loop, e);
            }
            event_loop.exit();
        }
    }

    /// Next to each screenshot, `<name>.json`: which machine, adapter and commit drew it.
    fn write_screenshot_sidecars(&mut self) -> Result<(), RunError> {
        let Some(running) = self.running.as_ref() else {
            return Ok(());
        };
        let pngs: Vec<PathBuf> = self
            .report
            .files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "png"))
            .cloned()
            .collect();
        for png in pngs {
            let name = png
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut sidecar = bench_harness::Sidecar::new(
                &name,
                "screenshot from a headless run of egui_winit_wgpu_template (--frames N --screenshot PATH)",
            );
            sidecar.set_adapter(&running.adapter);
            sidecar.files = vec![format!("{name}.png")];
            sidecar
                .notes
                .push(format!("display: {}", crate::measure::display_name()));
            let path = png.with_extension("json");
            if let Err(source) = sidecar.write(&path) {
                return Err(RunError::Sidecar { path, source });
            }
            self.report.files.push(path);
        }
        Ok(())
    }

    fn on_status(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let received = running.panel.drain_status();
        for status in &received {
            match status {
                Status::Frames(stats) => {
                    self.report.frames = stats.frames;
                    if let Some(m) = self.measurement.as_mut() {
                        m.record_frames(*stats);
                    }
                }
                Status::Latency(l) => {
                    if let Some(m) = self.measurement.as_mut() {
                        m.record_latency(*l);
                    }
                }
                Status::Screenshot(path) => self.report.files.push(path.clone()),
                Status::Finished { .. } => self.engine_finished = true,
                Status::Error(e) if self.config.frames.is_some() || self.measurement.is_some() => {
                    // A headless or measurement run has nobody to read the panel: stop.
                    let error = RunError::EngineReported(e.clone());
                    return self.fail(event_loop, error);
                }
                Status::Error(_) => {}
            }
        }
        if running.panel.shown.engine_gone {
            return self.fail(event_loop, RunError::EngineGone);
        }
        if !received.is_empty() {
            running.panel_window.window.request_redraw();
        }
    }
}

// ANCHOR: handler
impl ApplicationHandler<EngineWoke> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return; // resumed again after a suspend (mobile): the windows still exist
        }
        match self.start(event_loop) {
            Ok(running) => {
                self.running = Some(running);
                self.measurement = self.config.measure.map(Measurement::new);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    // ANCHOR: window_event
    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if id == running.render_window.id() {
            match translate(&event) {
                RenderWindowAction::Send(command) => {
                    let _ = running.commands.send(command);
                }
                RenderWindowAction::Quit => event_loop.exit(),
                RenderWindowAction::Ignore => {}
            }
        } else if id == running.panel_window.window.id() {
            match event {
                WindowEvent::CloseRequested => event_loop.exit(),
                WindowEvent::RedrawRequested => self.paint_panel(event_loop),
                event => {
                    if running.panel_window.on_event(&event) {
                        running.panel_window.window.request_redraw();
                    }
                }
            }
        }
    }
    // ANCHOR_END: window_event

    /// The engine sent status: show it.
    fn user_event(&mut self, event_loop: &ActiveEventLoop, _: EngineWoke) {
        self.on_status(event_loop);
    }

    /// All pending events are handled; decide when to wake up next.
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if self.panel_repaint_at.is_some_and(|at| now >= at) {
            self.panel_repaint_at = None;
            running.panel_window.window.request_redraw();
        }
        if let Some(m) = self.measurement.as_mut() {
            if let Some(colour) = m.due_change(now) {
                running.panel.set_colour(colour);
                running.panel_window.window.request_redraw();
            }
            if m.done(now) {
                let dir = self
                    .config
                    .out_dir
                    .clone()
                    .unwrap_or_else(bench_harness::figures_dir);
                let size = running.render_window.inner_size();
                let notes = [running.present_modes.clone()];
                match m.write(&dir, &running.adapter, [size.width, size.height], &notes) {
                    Ok(files) => self.report.files.extend(files),
                    Err(e) => return self.fail(event_loop, e.into()),
                }
                self.measurement = None;
                return event_loop.exit();
            }
        }
        // ANCHOR: control_flow
        // Sleep until the next event, or until the earliest moment something is due.
        let due = [
            self.panel_repaint_at,
            self.measurement.as_ref().map(Measurement::next_wake),
        ];
        event_loop.set_control_flow(match due.into_iter().flatten().min() {
            Some(at) => ControlFlow::WaitUntil(at),
            None => ControlFlow::Wait,
        });
        // ANCHOR_END: control_flow
    }

    /// The loop is ending (a window was closed, or the run is done): join the engine thread.
    fn exiting(&mut self, _: &ActiveEventLoop) {
        self.shutdown();
    }
}
// ANCHOR_END: handler
