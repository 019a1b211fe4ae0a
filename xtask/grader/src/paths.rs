//! Where the grader keeps its own files: every folder lies under `target/grading/` of the
//! course, so `cargo clean` removes them and no grading writes outside the build folder.

use std::path::{Path, PathBuf};

use student::catalog::Exercise;

fn grading(root: &Path) -> PathBuf {
    root.join("target/grading")
}

/// The reports of one `grade` run when no `--out` is given.
pub fn results(root: &Path, ex: &Exercise) -> PathBuf {
    grading(root).join(ex.slug()).join("results")
}

/// The gradebook and reports of a roster run when no `--out` is given.
pub fn roster(root: &Path) -> PathBuf {
    grading(root).join("roster")
}

/// The reference solutions' cached records, and their scratch folders.
pub fn reference(root: &Path) -> PathBuf {
    grading(root).join("reference")
}

/// One folder per grading, each removed when its grading ends.
pub fn runs(root: &Path) -> PathBuf {
    grading(root).join("runs")
}

/// An exclusive lock on the file `path` (made if missing), held until the file is dropped: one
/// process at a time past this point for the same path.
pub fn exclusive_lock(path: &Path) -> Result<std::fs::File, crate::error::GradeError> {
    use crate::error::io_err;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io_err(parent, e))?;
    }
    let file = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    file.lock().map_err(|e| io_err(path, e))?;
    Ok(file)
}

/// The warm start of one exercise (see `warm.rs`).
pub fn warm(root: &Path, ex: &Exercise) -> PathBuf {
    grading(root).join("warm").join(ex.slug())
}
