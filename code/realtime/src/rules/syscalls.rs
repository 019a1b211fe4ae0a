//! Rule: hoist system calls out of the hot loop, or batch them.
//!
//! The loop here must notice when its configuration file changes. Asking the kernel every
//! iteration (`stat`) costs a system call each time; asking every `every`-th iteration costs
//! one call per batch and notices the change at most `every` iterations late, but the
//! iteration that makes the call still pays all of it. `WatchedFile` moves the call to another
//! thread: the loop only reads a flag.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

// ANCHOR: per_iteration
/// Before: one `stat` system call per iteration.
pub fn changed_every_iteration(
    path: &Path,
    last_seen: &mut Option<SystemTime>,
) -> io::Result<bool> {
    let modified = std::fs::metadata(path)?.modified()?;
    let changed = last_seen.is_some_and(|t| t != modified);
    *last_seen = Some(modified);
    Ok(changed)
}
// ANCHOR_END: per_iteration

// ANCHOR: batched
/// After: one `stat` per `every` iterations.
pub struct BatchedCheck {
    path: PathBuf,
    every: u64,
    last_seen: Option<SystemTime>,
}

impl BatchedCheck {
    pub fn new(path: PathBuf, every: u64) -> Self {
        Self {
            path,
            every: every.max(1),
            last_seen: None,
        }
    }

    pub fn changed(&mut self, iteration: u64) -> io::Result<bool> {
        if !iteration.is_multiple_of(self.every) {
            return Ok(false);
        }
        changed_every_iteration(&self.path, &mut self.last_seen)
    }
}
// ANCHOR_END: batched

// ANCHOR: watched
/// The real fix: a watcher thread calls `stat` every `period` and raises a flag; the loop's
/// only cost is reading it. No iteration ever waits for the kernel.
pub struct WatchedFile {
    changed: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    watcher: Option<JoinHandle<io::Result<()>>>,
}

impl WatchedFile {
    /// Fails at once if the file cannot be read, rather than in the watcher later.
    pub fn new(path: PathBuf, period: Duration) -> io::Result<Self> {
        let mut last_seen = None;
        changed_every_iteration(&path, &mut last_seen)?;
        let changed = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, quit) = (Arc::clone(&changed), Arc::clone(&stop));
        let watcher = std::thread::spawn(move || {
            while !quit.load(Ordering::Relaxed) {
                std::thread::sleep(period);
                if changed_every_iteration(&path, &mut last_seen)? {
                    flag.store(true, Ordering::Release);
                }
            }
            Ok(())
        });
        Ok(Self {
            changed,
            stop,
            watcher: Some(watcher),
        })
    }

    /// Has the file changed since the last call that returned `true`? A load, and a write
    /// only when it has.
    pub fn changed(&self) -> bool {
        self.changed.load(Ordering::Acquire) && self.changed.swap(false, Ordering::AcqRel)
    }
}
// ANCHOR_END: watched

impl WatchedFile {
    /// Stops the watcher and reports whether its `stat` calls failed.
    pub fn stop(mut self) -> io::Result<()> {
        self.shut_down()
    }

    fn shut_down(&mut self) -> io::Result<()> {
        self.stop.store(true, Ordering::Relaxed);
        match self.watcher.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the file watcher thread panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for WatchedFile {
    fn drop(&mut self) {
        // An error here was already reported by `stop`, or nobody asked for it.
        let _ = self.shut_down();
    }
}
