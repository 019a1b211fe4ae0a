//! A private X server (Xvfb) for tests and figure runs on machines without a screen (CI).
//! Debian package: `xvfb`.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::error::XvfbError;

/// A running Xvfb; killed when dropped.
pub struct Xvfb {
    child: Child,
    /// The value for `DISPLAY`, e.g. ":5".
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb on a free display number (Xvfb picks it and tells us via `-displayfd`), with
    /// one 1280 × 1024 screen: room for the panel and an 800 × 600 render window side by side.
    pub fn start() -> Result<Self, XvfbError> {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(XvfbError::Spawn)?;
        let mut line = String::new();
        // Xvfb writes the display number once it accepts connections.
        let read = match child.stdout.take() {
            Some(stdout) => BufReader::new(stdout).read_line(&mut line).is_ok(),
            None => false, // cannot happen: stdout was piped above
        };
        match (read, line.trim().parse::<u32>()) {
            (true, Ok(n)) => Ok(Self {
                child,
                display: format!(":{n}"),
            }),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                Err(XvfbError::NoDisplay { line })
            }
        }
    }

    /// Sets `DISPLAY` and a private `XDG_RUNTIME_DIR` (Mesa warns without one) on `cmd`.
    pub fn configure(&self, cmd: &mut Command) {
        cmd.env("DISPLAY", &self.display)
            .env("TEMPLATE_DISPLAY_KIND", "Xvfb")
            .env_remove("WAYLAND_DISPLAY");
        let runtime = std::env::temp_dir().join(format!("xdg-runtime-{}", std::process::id()));
        if std::fs::create_dir_all(&runtime).is_ok() {
            set_private(&runtime);
            cmd.env("XDG_RUNTIME_DIR", &runtime);
        }
    }
}

/// How a program run on the private display ended, and what it printed on standard output.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
}

impl Xvfb {
    /// Runs `cmd` on this display with its standard output captured, and kills it if it has not
    /// exited within `limit`: a test of a windowed program must end even when the program hangs.
    /// The output is read on its own thread, so a chatty program cannot fill the pipe and stall.
    pub fn run_with_limit(
        &self,
        cmd: &mut Command,
        limit: Duration,
    ) -> Result<Finished, XvfbError> {
        self.configure(cmd);
        let mut child = cmd
            .stdout(Stdio::piped())
            .spawn()
            .map_err(XvfbError::Program)?;
        let mut pipe = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut out = String::new();
            if let Some(pipe) = pipe.as_mut() {
                let _ = pipe.read_to_string(&mut out);
            }
            out
        });
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(XvfbError::Program)? {
                break Some(status);
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let stdout = reader.join().unwrap_or_default();
        match status {
            Some(status) => Ok(Finished { status, stdout }),
            None => Err(XvfbError::TimedOut { limit, stdout }),
        }
    }
}

#[cfg(unix)]
fn set_private(dir: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
}

#[cfg(not(unix))]
fn set_private(_: &std::path::Path) {}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
