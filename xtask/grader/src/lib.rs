//! The course's autograder, a teachers' tool: `check` (stubs fail, solutions pass), `release`
//! (the student edition), `grade` (one submission or a roster, sandboxed).
//!
//! Each command lives in its own file, and this file only declares the modules and hands each
//! command to its file: the modules share `error.rs` (the grader's error) and `paths.rs` (its
//! folders), never this file. The exercise catalog and the test-report reader come from the
//! `student` crate (the student edition needs them too), which the modules use by that name;
//! `workspace` writes the scratch Cargo workspaces that checking, grading and releasing build in.

mod check;
pub mod contract;
pub mod error;
mod gate;
mod grade;
mod hidden_run;
mod mutants;
mod options;
mod paths;
mod release;
mod report;
mod roster;
mod sandbox;
mod similarity;
mod stable_hash;
mod staff_files;
mod submission;
mod verdict;
mod warm;
mod workflow;
mod workspace;

/// The course root (`student`'s, since both crates lie side by side under `xtask/`).
pub use student::repo_root;
/// The exercise catalog and the test-report reader, for the grader's tests.
pub use student::{catalog, junit};

use std::path::{Path, PathBuf};

pub use error::GradeError;
pub use options::GradeOptions;

/// Every stub fails its tests and every reference solution passes (one exercise, or all).
pub fn check_exercises(root: &Path, only: Option<&str>) -> Result<(), GradeError> {
    check::run(root, only)
}

/// Writes the student edition into `out` (which must be new or empty).
pub fn release(root: &Path, out: &Path) -> Result<(), GradeError> {
    release::run(root, out)
}

/// Grades one submission folder and writes its reports into `out`.
pub fn grade(
    root: &Path,
    exercise: &str,
    submission: &Path,
    out: Option<PathBuf>,
    options: GradeOptions,
) -> Result<(), GradeError> {
    sandbox::preflight()?;
    grade::run(root, exercise, submission, out, options)
}

pub use roster::{Shard, run as roster};

/// Compiles the dependencies of every exercise (or one) once, and runs the reference solutions'
/// recording tests once, so gradings start warm.
pub fn warm(root: &Path, only: Option<&str>, options: GradeOptions) -> Result<(), GradeError> {
    sandbox::preflight()?;
    grade::warm_all(root, only, options)
}

/// Mutants of each reference solution against its hidden tests (`figures/exercises_mutants.csv`).
pub fn mutants(root: &Path, only: Option<&str>, out: &Path) -> Result<(), GradeError> {
    mutants::run(root, only, out)
}

/// Writes the teacher's grading workflow (private repository) to `out`.
pub fn classroom_workflow(out: &Path, shards: u32) -> Result<(), GradeError> {
    let text = workflow::teacher(shards)?;
    catalog::write(out, &text)?;
    Ok(())
}

/// Joins the shards' results (each a roster `--out` folder) into one gradebook in `out`.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<(), GradeError> {
    roster::merge(shards, out)
}
