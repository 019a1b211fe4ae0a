//! `cargo xtask grade`: grading one submission (or a roster, see `roster.rs`).
//!
//! Phases: take the submission's sources → build the library with the staff manifest and lock,
//! offline, before any hidden test exists → add the hidden tests with fresh tokens and build
//! them (the library must not be rebuilt) → run them sandboxed → score each expected test only
//! if it ran, passed and printed its token.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::catalog::{self, Exercise};
use crate::error::{GradeError, io_err};
use crate::junit;
use crate::report::{self, Outcome, TestResult};
use crate::sandbox::{self, Sandbox};
use crate::verdict::{self, Records};
use crate::{contract, gate, staff_files, submission, warm};

pub fn run(
    root: &Path,
    exercise: &str,
    submission: &Path,
    out: Option<PathBuf>,
) -> Result<(), GradeError> {
    let ex = catalog::find(root, exercise)?;
    let out = out.unwrap_or_else(|| root.join("target/grading").join(ex.slug()).join("results"));
    let outcome = grade_one(root, &ex, submission)?;
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
pub fn grade_one(root: &Path, ex: &Exercise, submission_dir: &Path) -> Result<Outcome, GradeError> {
    let (mut outcome, records) = run_hidden(root, ex, submission_dir)?;
    if !records_used(ex)? {
        return Ok(outcome);
    }
    let reference = reference_records(root, ex)?;
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

/// Computes (or finds cached) the reference solution's records, if the exercise records any:
/// `grader warm` calls it so that gradings start with them.
pub fn warm_records(root: &Path, ex: &Exercise) -> Result<(), GradeError> {
    if records_used(ex)? {
        reference_records(root, ex)?;
    }
    Ok(())
}

/// The reference solution's records, computed once per version of the exercise's staff files
/// and kept in `target/grading/reference/`.
fn reference_records(root: &Path, ex: &Exercise) -> Result<Records, GradeError> {
    use std::hash::{Hash, Hasher};
    let files = submission::solved_stub(&ex.dir)
        .map_err(|e| GradeError::Setup(format!("{}: {e}", ex.id)))?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    files.hash(&mut hasher);
    for staff in ["grading/hidden.rs", "Cargo.toml", "exercise.toml"] {
        fs::read(ex.dir.join(staff))
            .unwrap_or_default()
            .hash(&mut hasher);
    }
    let cache = root.join("target/grading/reference").join(format!(
        "{}-{:016x}.json",
        ex.slug(),
        hasher.finish()
    ));
    if let Some(records) = fs::read_to_string(&cache)
        .ok()
        .and_then(|t| serde_json::from_str::<Records>(&t).ok())
    {
        return Ok(records);
    }
    let scratch =
        root.join("target/grading/reference")
            .join(format!("{}-{}", ex.slug(), sandbox::token()?));
    for (rel, bytes) in &files {
        let path = scratch.join("src").join(rel);
        catalog::write(&path, "")?;
        fs::write(&path, bytes).map_err(|e| io_err(&path, e))?;
    }
    let ran = run_hidden(root, ex, &scratch);
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

/// Builds and runs the hidden tests against one submission folder: the outcome as the tests
/// themselves report it, and every test's records.
fn run_hidden(
    root: &Path,
    ex: &Exercise,
    submission_dir: &Path,
) -> Result<(Outcome, Records), GradeError> {
    let start = Instant::now();
    let finish = |mut o: Outcome| {
        o.seconds = start.elapsed().as_secs_f64();
        Ok((o, Records::new()))
    };
    let taken = match submission::take(submission_dir) {
        Ok(t) => t,
        Err(message) => {
            return finish(Outcome::all_failed(
                ex,
                "no submission",
                message.to_string(),
                Vec::new(),
            ));
        }
    };
    let mut notes = taken.ignored.clone();
    let given = ex.given_in_src();
    for (rel, bytes) in &taken.files {
        if given.contains(rel)
            && fs::read(ex.dir.join("src").join(rel)).ok().as_ref() != Some(bytes)
        {
            notes.push(format!(
                "src/{} (given by the course: the original was used, not your edited copy)",
                rel.display()
            ));
        }
    }
    // The text check only gives clearer messages; the sandbox is what stops file access. Tests
    // switch it off to show that the sandbox alone holds.
    let forbidden = match std::env::var_os("GRADER_SKIP_TEXT_CHECK") {
        Some(_) => Vec::new(),
        None => submission::forbidden_uses(&taken.files),
    };
    if !forbidden.is_empty() {
        return finish(Outcome::all_failed(
            ex,
            "refused",
            forbidden.join("\n"),
            notes,
        ));
    }
    if taken.files.is_empty() {
        let msg = format!("no source files under {}/src", submission_dir.display());
        return finish(Outcome::all_failed(ex, "no submission", msg, notes));
    }
    // The stub's public API is the contract: checked on the sources that will be built (the
    // course's copies of the given files in place of the student's).
    let stub = contract::api_of(&stub_files(ex)?)
        .map_err(|e| GradeError::Setup(format!("the stub of {}: {e}", ex.id)))?;
    // Tests of the grader switch the static checks off (GRADER_SKIP_TEXT_CHECK) to show what
    // the sandbox and the gate alone stop.
    let broken = match std::env::var_os("GRADER_SKIP_TEXT_CHECK") {
        Some(_) => Vec::new(),
        None => contract::check(&stub, &built_files(ex, &taken.files, &given)?),
    };
    if !broken.is_empty() {
        let message = format!(
            "Your code changes the exercise's public API or uses a pattern the grader refuses:\n- {}",
            broken.join("\n- ")
        );
        return finish(Outcome::all_failed(ex, "refused", message, notes));
    }

    // A fresh grading folder (staff workspace + the taken sources + a copy of the warm target),
    // deleted when this function returns, whatever happens.
    let warm = warm::ensure(root, ex)?;
    let run = RunDir::fresh(root, ex)?;
    let ws = run.path.join("ws");
    let crate_dir = ws.join("exercise");
    warm::write_workspace(root, ex, &ws)?;
    catalog::copy_file(&warm.lock, &ws.join("Cargo.lock"))?;
    for (rel, bytes) in &taken.files {
        let path = crate_dir.join("src").join(rel);
        catalog::write(&path, "")?;
        fs::write(&path, bytes).map_err(|e| io_err(&path, e))?;
    }
    for rel in &given {
        catalog::copy_file(
            &ex.dir.join("src").join(rel),
            &crate_dir.join("src").join(rel),
        )?;
    }
    let target = run.path.join("target");
    warm::copy_target(&warm.target, &target)?;
    let mut sb = Sandbox::new(&ws, &target, Some(&warm.course), ex.meta.gpu)?
        .with_runner(&run.path.join("staff"))?;
    // Tests switch the gate off to show what the sandbox alone stops.
    if std::env::var_os("GRADER_NO_GATE").is_none() {
        sb.extra_env = gate::environment();
    }
    let package = ex.package();

    // Phase 1: the library alone, compiled by Clippy with the gate's lints forbidden (the gate
    // checks exactly what is built); the hidden tests do not exist yet.
    // Both builds are cargo's test profile, offline and locked: phase 2 reuses phase 1's library.
    let test_build = |what: &[&str]| {
        let args = [
            "build",
            "--locked",
            "--offline",
            "--profile",
            "test",
            "-p",
            &package,
        ];
        sb.cargo(&[&args[..], what].concat(), 900, false)
    };
    let build = test_build(&["--lib"])?;
    if !build.status.success() {
        let (status, message) = gate::explain(&String::from_utf8_lossy(&build.stderr));
        return finish(Outcome::all_failed(ex, status, message, notes));
    }

    // Phase 2: the hidden tests, with fresh tokens.
    let tokens: BTreeMap<String, String> = ex
        .meta
        .points
        .keys()
        .map(|name| sandbox::token().map(|t| (name.clone(), t)))
        .collect::<Result<_, _>>()?;
    let tests_dir = crate_dir.join("tests");
    catalog::write(
        &tests_dir.join("hidden.rs"),
        &staff_files::hidden_source(ex, &tokens)?,
    )?;
    let build = test_build(&["--test", "hidden", "--message-format", "json"])?;
    if !build.status.success() {
        let message = "Your code builds, but the hidden tests could not be compiled against it. \
                       Keep the names and signatures of the stub's public items."
            .to_string();
        return finish(Outcome::all_failed(ex, "did not build", message, notes));
    }
    let executables = library_not_rebuilt(&String::from_utf8_lossy(&build.stdout), &package)?;
    // The running tests may execute their binary but not read it (which also makes the process
    // undumpable: no /proc/self/exe or /proc/self/mem), nor read the hidden tests' source. Cargo
    // only needs their modification times to see that they are fresh.
    for exe in executables {
        let host = exe
            .strip_prefix(sandbox::TARGET)
            .map(|rel| target.join(rel))
            .map_err(|_| {
                GradeError::Setup(format!("{}: not in the target folder", exe.display()))
            })?;
        sandbox::set_mode(&host, 0o111)?;
    }
    sandbox::set_mode(&tests_dir.join("hidden.rs"), 0o000)?;

    // Tests of the grader only: hand the tokens to the tests, as a submission that read them out
    // of its own memory would have them, to show that records still decide.
    if std::env::var_os("GRADER_TEST_ONLY_LEAK_TOKENS").is_some() {
        let all: Vec<String> = tokens.iter().map(|(n, t)| format!("{n}={t}")).collect();
        sb.extra_env.push(("GRADE_TOKENS".into(), all.join(",")));
    }

    // Phase 3: run them, sandboxed, through the runner.
    let limit = 120 + ex.timeout_s() * ex.meta.points.len() as u32;
    let run_args = [
        "nextest",
        "run",
        "--locked",
        "--offline",
        "--cargo-profile",
        "test",
        "--profile",
        "grade",
        "--config-file",
        ".config/nextest.toml",
        "-p",
        &package,
        "--test",
        "hidden",
        "--no-fail-fast",
    ];
    let ran = sb.cargo(&run_args, limit, true)?;
    if std::env::var_os("GRADER_DEBUG").is_some() {
        // For staff only: the hidden tests' own output, never shown to students.
        eprintln!("{}", String::from_utf8_lossy(&ran.stderr));
    }
    let junit_path = ws.join("store/grade/junit.xml");
    let Ok(junit) = fs::read_to_string(&junit_path) else {
        // nextest writes its report whatever the tests do: no report is the grader's failure.
        eprintln!(
            "grader: nextest wrote no report:\n{}",
            String::from_utf8_lossy(&ran.stderr)
        );
        let message = "The grader could not run the tests (a problem on the grading machine, \
                       not in your code): ask your teacher to look at the grader's log."
            .to_string();
        return finish(Outcome::all_failed(ex, "not run", message, notes));
    };
    let cases = junit::parse(&junit).map_err(|e| GradeError::Format {
        what: format!("reading {}", junit_path.display()),
        source: Box::new(e),
    })?;
    let suite = format!("{package}::hidden");
    let records: Records = cases
        .iter()
        .filter(|c| c.suite == suite && ex.meta.points.contains_key(&c.name))
        .map(|c| (c.name.clone(), verdict::parse(&c.stdout)))
        .collect();
    let tests = ex
        .meta
        .points
        .iter()
        .map(|(name, &points)| {
            let case = cases.iter().find(|c| c.suite == suite && &c.name == name);
            let token_line = format!("GRADE-OK {}", tokens[name]);
            let (passed, status) = match case {
                None => (false, "did not run".to_string()),
                Some(c) => match &c.failure {
                    Some(kind) => (false, failure_words(kind)),
                    None if c.stdout.lines().any(|l| l.trim_end() == token_line) => {
                        (true, "passed".into())
                    }
                    None => (false, "ended without finishing (no token)".into()),
                },
            };
            TestResult {
                name: name.clone(),
                max_points: points,
                passed,
                status,
            }
        })
        .collect();
    let outcome = Outcome {
        exercise: ex.id.clone(),
        tests,
        build_error: None,
        notes,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((outcome, records))
}

/// The stub's sources (`src/**` of the exercise as the course ships it).
fn stub_files(ex: &Exercise) -> Result<Vec<(PathBuf, Vec<u8>)>, GradeError> {
    let taken = submission::take(&ex.dir).map_err(|e| GradeError::Setup(e.to_string()))?;
    Ok(taken.files)
}

/// The sources a grading builds: the submission's, with the course's copy of each given file.
fn built_files(
    ex: &Exercise,
    submitted: &[(PathBuf, Vec<u8>)],
    given: &[PathBuf],
) -> Result<Vec<(PathBuf, Vec<u8>)>, GradeError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = submitted
        .iter()
        .filter(|(rel, _)| !given.contains(rel))
        .cloned()
        .collect();
    for rel in given {
        let path = ex.dir.join("src").join(rel);
        files.push((rel.clone(), fs::read(&path).map_err(|e| io_err(&path, e))?));
    }
    Ok(files)
}

/// One grading's own folder, `target/grading/runs/<exercise>-<random>/`: removed on drop, so no
/// file of one grading (sources, hidden tests, tokens, build output) survives into the next.
struct RunDir {
    path: PathBuf,
}

impl RunDir {
    fn fresh(root: &Path, ex: &Exercise) -> Result<Self, GradeError> {
        let path =
            root.join("target/grading/runs")
                .join(format!("{}-{}", ex.slug(), sandbox::token()?));
        fs::create_dir_all(&path).map_err(|e| io_err(&path, e))?;
        sandbox::set_mode(&path, 0o700)?;
        Ok(Self { path })
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        // The staff folder was made read-only for the grading; its files go with it now.
        let _ = sandbox::set_mode(&self.path.join("staff"), 0o700);
        if let Err(e) = fs::remove_dir_all(&self.path) {
            eprintln!("grader: could not remove {}: {e}", self.path.display());
        }
    }
}

/// The library must not be rebuilt once the hidden tests exist (it was built, and gated, before).
/// Returns the test executables built (paths inside the sandbox).
fn library_not_rebuilt(cargo_json: &str, package: &str) -> Result<Vec<PathBuf>, GradeError> {
    let mut executables = Vec::new();
    for line in cargo_json.lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        if let Some(exe) = msg["executable"].as_str() {
            executables.push(PathBuf::from(exe));
        }
        let ours = msg["target"]["name"] == package
            || msg["package_id"].as_str().is_some_and(|id| {
                id.contains(&format!("#{package}@")) || id.contains(&format!("/{package}#"))
            });
        let is_lib = msg["target"]["kind"]
            .as_array()
            .is_some_and(|kinds| kinds.iter().any(|k| k == "lib"));
        if ours && is_lib && msg["fresh"] != true {
            return Err(GradeError::Setup(
                "grader error: the library was rebuilt after the hidden tests were added".into(),
            ));
        }
    }
    Ok(executables)
}

fn failure_words(kind: &str) -> String {
    match kind {
        k if k.contains("timeout") => "timed out".into(),
        k if k.contains("abort") || k.contains("signal") => "crashed".into(),
        k if k.contains("leak") => "left processes running".into(),
        _ => "failed".into(),
    }
}
