//! `cargo xtask grade`: grading one submission (or a roster, see `roster.rs`).
//!
//! `hidden_run.rs` builds and runs the hidden tests phase by phase: take the submission's
//! sources → build the library with the staff manifest and lock, offline, before any hidden test
//! exists → add the hidden tests with fresh tokens and build them (the library must not be
//! rebuilt) → run them sandboxed → score each expected test only if it ran, passed and printed
//! its token. This file compares the records of what passed with the reference solution's.

use std::fs;
use std::path::{Path, PathBuf};

use student::catalog::{self, Exercise};

use crate::error::{GradeError, io_err};
use crate::hidden_run::run_hidden;
use crate::options::GradeOptions;
use crate::report::{self, Outcome};
use crate::stable_hash::{self, StableHasher};
use crate::verdict::{self, Records};
use crate::{paths, sandbox, submission, warm};

pub fn run(
    root: &Path,
    exercise: &str,
    submission: &Path,
    out: Option<PathBuf>,
    options: GradeOptions,
) -> Result<(), GradeError> {
    let ex = catalog::find(root, exercise)?;
    let out = out.unwrap_or_else(|| paths::results(root, &ex));
    let outcome = grade_one(root, &ex, submission, options)?;
    report::write_all(&out, &outcome)?;
    print!("{}", report::markdown(&outcome));
    println!(
        "\nresults.json, classroom.json and summary.md are in {}",
        out.display()
    );
    Ok(())
}

/// Grades one submission folder. `Err` only for the grader's own failures (no bubblewrap, a
/// broken warm start); a submission that does not build is an `Ok` outcome with zero points.
///
/// A test that records its results (`grade_record!`, see `verdict.rs`) scores only if they equal
/// the reference solution's: that comparison happens here, outside the student's process.
pub fn grade_one(
    root: &Path,
    ex: &Exercise,
    submission_dir: &Path,
    options: GradeOptions,
) -> Result<Outcome, GradeError> {
    let (mut outcome, records) = run_hidden(root, ex, submission_dir, options)?;
    if !records_used(ex)? {
        return Ok(outcome);
    }
    let reference = reference_records(root, ex, options)?;
    for test in outcome.tests.iter_mut().filter(|t| t.passed) {
        let Some(want) = reference.get(&test.name).filter(|w| !w.is_empty()) else {
            continue;
        };
        let got = records
            .get(&test.name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if let Some(why) = verdict::compare(want, got) {
            test.passed = false;
            test.status = why;
        }
    }
    Ok(outcome)
}

/// Whether the exercise's hidden tests record results.
fn records_used(ex: &Exercise) -> Result<bool, GradeError> {
    let path = ex.dir.join("grading/hidden.rs");
    let text = fs::read_to_string(&path).map_err(|e| io_err(&path, e))?;
    Ok(text.contains("grade_record!"))
}

/// `grader warm`: every exercise's (or one's) warm start, and the reference solution's records
/// if the exercise records any, so that gradings start with both.
pub fn warm_all(root: &Path, only: Option<&str>, options: GradeOptions) -> Result<(), GradeError> {
    let exercises = match only {
        Some(id) => vec![catalog::find(root, id)?],
        None => catalog::all(root)?,
    };
    for ex in &exercises {
        warm::ensure(root, ex)?;
        if records_used(ex)? {
            reference_records(root, ex, options)?;
        }
        println!("{}: warm", ex.id);
    }
    Ok(())
}

/// The reference solution's records, computed once per version of the exercise's staff files
/// and kept in `target/grading/reference/`.
fn reference_records(
    root: &Path,
    ex: &Exercise,
    options: GradeOptions,
) -> Result<Records, GradeError> {
    let files = submission::solved_stub(&ex.dir)
        .map_err(|e| GradeError::Setup(format!("{}: {e}", ex.id)))?;
    let mut hasher = StableHasher::new();
    hasher.field(&stable_hash::of_files(&files).to_le_bytes());
    for staff in ["grading/hidden.rs", "Cargo.toml", "exercise.toml"] {
        hasher.field(&fs::read(ex.dir.join(staff)).unwrap_or_default());
    }
    let cache = paths::reference(root).join(format!("{}-{:016x}.json", ex.slug(), hasher.finish()));
    if let Some(records) = fs::read_to_string(&cache)
        .ok()
        .and_then(|t| serde_json::from_str::<Records>(&t).ok())
    {
        return Ok(records);
    }
    let scratch = paths::reference(root).join(format!("{}-{}", ex.slug(), sandbox::token()?));
    for (rel, bytes) in &files {
        let path = scratch.join("src").join(rel);
        catalog::write(&path, "")?;
        fs::write(&path, bytes).map_err(|e| io_err(&path, e))?;
    }
    let ran = run_hidden(root, ex, &scratch, options);
    let _ = fs::remove_dir_all(&scratch);
    let (outcome, records) = ran?;
    if let Some(failed) = outcome.tests.iter().find(|t| !t.passed) {
        return Err(GradeError::Setup(format!(
            "the reference solution of {} fails its hidden test {} ({}): fix the exercise first",
            ex.id, failed.name, failed.status
        )));
    }
    let text = serde_json::to_string_pretty(&records).map_err(|e| GradeError::Format {
        what: format!("writing {}", cache.display()),
        source: Box::new(e),
    })?;
    let partial = cache.with_extension(format!("part-{}", sandbox::token()?));
    catalog::write(&partial, &text)?;
    fs::rename(&partial, &cache).map_err(|e| io_err(&cache, e))?;
    Ok(records)
}
