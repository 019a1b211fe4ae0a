//! The exercises as a student sees them: the catalog (`exercise.toml`), nextest's report, and the
//! two helpers `progress` and `hint`. The grader builds on the catalog and the report reader; none
//! of the grader's code is here, so the student edition can ship this crate alone.

pub mod catalog;
pub mod error;
pub mod junit;
pub mod tools;

use std::path::{Path, PathBuf};

pub use error::StudentError;

/// The course (or student edition) root: the workspace folder above `xtask/student/`.
pub fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| manifest.to_path_buf())
}
