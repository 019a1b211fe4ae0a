//! Free space where the build goes. A full `cargo xtask test` from scratch leaves about 9.3 GB in
//! `target/` with CI's settings (no incremental caches, no debug info; measured on Linux), more
//! with Cargo's defaults. A disk that fills half-way fails in whichever step is running, with
//! "No space left on device" deep in a compiler's output; saying so before the run is kinder.

use std::path::{Path, PathBuf};

const GB: u64 = 1_000_000_000;

/// Below this much free space the run warns (it still runs: an existing `target/` needs less).
pub const TEST_RUN_BYTES: u64 = 12 * GB;

/// Where Cargo writes: `CARGO_TARGET_DIR`, or `target/` under `root`.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// Bytes this user may still write on the file system that holds `path` (or its nearest
/// existing parent); `None` where the system cannot be asked (not Unix).
pub fn available_bytes(path: &Path) -> Option<u64> {
    let existing = path.ancestors().find(|p| p.exists())?;
    available_on(existing)
}

#[cfg(unix)]
fn available_on(path: &Path) -> Option<u64> {
    let stat = rustix::fs::statvfs(path).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

#[cfg(not(unix))]
fn available_on(_: &Path) -> Option<u64> {
    None
}

/// The warning for `free` bytes at `target`, or `None` when there is room.
pub fn warning(free: u64, target: &Path) -> Option<String> {
    (free < TEST_RUN_BYTES).then(|| {
        format!(
            "warning: {:.1} GB free on the disk of {}; a test run from scratch writes about 9 GB \
             there. If it stops with \"No space left on device\", free some space, or point \
             CARGO_TARGET_DIR at a roomier disk (and CARGO_INCREMENTAL=0 saves a few GB).",
            free as f64 / GB as f64,
            target.display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warns_only_below_the_measured_need() {
        let target = Path::new("/x/target");
        let low = warning(3 * GB, target).unwrap();
        assert!(
            low.contains("3.0 GB free") && low.contains("/x/target"),
            "{low}"
        );
        assert_eq!(warning(TEST_RUN_BYTES, target), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_folder_is_asked_about_through_its_parent() {
        let dir = std::env::temp_dir().join("no-such-folder-yet/target");
        assert!(available_bytes(&dir).is_some_and(|b| b > 0));
    }
}
