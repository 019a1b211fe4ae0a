//! Rule: hoist system calls out of the hot loop, or batch them.
//!
//! The loop here must notice when its configuration file changes. Asking the kernel every
//! iteration (`stat`) costs a system call each time; asking every `every`-th iteration costs
//! one call per batch and notices the change at most `every` iterations late.

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
