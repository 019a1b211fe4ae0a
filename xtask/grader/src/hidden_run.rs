//! Building and running the hidden tests against one submission folder, phase by phase:
//! take the sources → check them → prepare a fresh grading folder → build the library (gated,
//! before any hidden test exists) → build the hidden tests with fresh tokens → run them
//! sandboxed → score each expected test only if it ran, passed and printed its token.
//!
//! A phase that ends the grading early for the submission's sake returns [`Halt::ZeroPoints`];
//! the grader's own failures travel as [`Halt::Grader`].

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use student::catalog::{self, Exercise};
use student::junit::{self, Case};

use crate::error::{GradeError, io_err};
use crate::options::GradeOptions;
use crate::report::{Outcome, TestResult};
use crate::sandbox::{self, Sandbox};
use crate::verdict::{self, Records};
use crate::{contract, gate, paths, staff_files, submission, warm};

/// Why a grading stopped before scoring.
enum Halt {
    /// The submission scores nothing: the status and message every test gets.
    ZeroPoints {
        status: &'static str,
        message: String,
    },
    /// The grader itself failed.
    Grader(GradeError),
}

impl From<GradeError> for Halt {
    fn from(e: GradeError) -> Self {
        Halt::Grader(e)
    }
}

fn zero_points(status: &'static str, message: impl Into<String>) -> Halt {
    Halt::ZeroPoints {
        status,
        message: message.into(),
    }
}

/// Builds and runs the hidden tests against one submission folder: the outcome as the tests
/// themselves report it, and every test's records.
pub fn run_hidden(
    root: &Path,
    ex: &Exercise,
    submission_dir: &Path,
    options: GradeOptions,
) -> Result<(Outcome, Records), GradeError> {
    let start = Instant::now();
    let mut notes = Vec::new();
    let graded = grade_phases(root, ex, submission_dir, options, &mut notes);
    let seconds = start.elapsed().as_secs_f64();
    match graded {
        Ok((tests, records)) => {
            let outcome = Outcome {
                exercise: ex.id.clone(),
                tests,
                build_error: None,
                notes,
                seconds,
            };
            Ok((outcome, records))
        }
        Err(Halt::ZeroPoints { status, message }) => {
            let mut outcome = Outcome::all_failed(ex, status, message, notes);
            outcome.seconds = seconds;
            Ok((outcome, Records::new()))
        }
        Err(Halt::Grader(e)) => Err(e),
    }
}

/// The phases in order; `notes` collects what the student should read whatever the score.
fn grade_phases(
    root: &Path,
    ex: &Exercise,
    submission_dir: &Path,
    options: GradeOptions,
    notes: &mut Vec<String>,
) -> Result<(Vec<TestResult>, Records), Halt> {
    let sources = take_sources(ex, submission_dir, notes)?;
    check_sources(ex, submission_dir, &sources, options.skip_text_check)?;
    // The grading folder is deleted when `grading` is dropped, whatever happens.
    let mut grading = Grading::prepare(root, ex, &sources, options)?;
    grading.build_library()?;
    let tokens = grading.build_hidden(ex)?;
    let cases = grading.run_hidden_tests(ex, &tokens)?;
    Ok(score(ex, &grading.package, &cases, &tokens))
}

/// The submission's sources and the files the course gives (which replace the student's).
struct Sources {
    files: Vec<(PathBuf, Vec<u8>)>,
    given: Vec<PathBuf>,
}

/// Phase 1: read the submission folder; note the files it ignored and the given files the
/// student edited.
fn take_sources(
    ex: &Exercise,
    submission_dir: &Path,
    notes: &mut Vec<String>,
) -> Result<Sources, Halt> {
    let taken = submission::take(submission_dir)
        .map_err(|message| zero_points("no submission", message.to_string()))?;
    notes.extend(taken.ignored.iter().cloned());
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
    Ok(Sources {
        files: taken.files,
        given,
    })
}

/// Phase 2: the static checks. They only give clearer messages; the sandbox and the gate are
/// what stop a submission. Tests of the grader switch them off
/// ([`GradeOptions::skip_text_check`]) to show what the sandbox and the gate alone stop.
fn check_sources(
    ex: &Exercise,
    submission_dir: &Path,
    sources: &Sources,
    skip_text_check: bool,
) -> Result<(), Halt> {
    if !skip_text_check {
        let forbidden = submission::forbidden_uses(&sources.files);
        if !forbidden.is_empty() {
            return Err(zero_points("refused", forbidden.join("\n")));
        }
    }
    if sources.files.is_empty() {
        let msg = format!("no source files under {}/src", submission_dir.display());
        return Err(zero_points("no submission", msg));
    }
    // The stub's public API is the contract: checked on the sources that will be built (the
    // course's copies of the given files in place of the student's).
    let stub = contract::api_of(&stub_files(ex)?)
        .map_err(|e| GradeError::Setup(format!("the stub of {}: {e}", ex.id)))?;
    if skip_text_check {
        return Ok(());
    }
    let broken = contract::check(&stub, &built_files(ex, &sources.files, &sources.given)?);
    if !broken.is_empty() {
        let message = format!(
            "Your code changes the exercise's public API or uses a pattern the grader refuses:\n- {}",
            broken.join("\n- ")
        );
        return Err(zero_points("refused", message));
    }
    Ok(())
}

/// A fresh grading folder: the staff workspace with the taken sources, a copy of the warm
/// target, and the sandbox that builds and runs in it.
struct Grading {
    /// Removed on drop.
    run: RunDir,
    crate_dir: PathBuf,
    target: PathBuf,
    sandbox: Sandbox,
    package: String,
    options: GradeOptions,
}

impl Grading {
    /// Phase 3: write the staff workspace, the sources (the course's copy of each given file)
    /// and the warm target into a new run folder.
    fn prepare(
        root: &Path,
        ex: &Exercise,
        sources: &Sources,
        options: GradeOptions,
    ) -> Result<Self, GradeError> {
        let warm = warm::ensure(root, ex)?;
        let run = RunDir::fresh(root, ex)?;
        let ws = run.path.join("ws");
        let crate_dir = ws.join("exercise");
        warm::write_workspace(root, ex, &ws)?;
        catalog::copy_file(&warm.lock, &ws.join("Cargo.lock"))?;
        for (rel, bytes) in &sources.files {
            let path = crate_dir.join("src").join(rel);
            catalog::write(&path, "")?;
            fs::write(&path, bytes).map_err(|e| io_err(&path, e))?;
        }
        for rel in &sources.given {
            catalog::copy_file(
                &ex.dir.join("src").join(rel),
                &crate_dir.join("src").join(rel),
            )?;
        }
        let target = run.path.join("target");
        warm::copy_target(&warm.target, &target)?;
        let mut sandbox = Sandbox::new(&ws, &target, Some(&warm.course), ex.meta.gpu)?
            .with_runner(&run.path.join("staff"))?;
        // Tests switch the gate off to show what the sandbox alone stops.
        if !options.no_gate {
            sandbox.extra_env = gate::environment();
        }
        Ok(Self {
            run,
            crate_dir,
            target,
            sandbox,
            package: ex.package(),
            options,
        })
    }

    /// A build in cargo's test profile, offline and locked, so that the hidden tests' build
    /// reuses the library's.
    fn test_build(&self, what: &[&str]) -> Result<std::process::Output, GradeError> {
        let args = [
            "build",
            "--locked",
            "--offline",
            "--profile",
            "test",
            "-p",
            &self.package,
        ];
        self.sandbox.cargo(&[&args[..], what].concat(), 900, false)
    }

    /// Phase 4: the library alone, compiled by Clippy with the gate's lints forbidden (the gate
    /// checks exactly what is built); the hidden tests do not exist yet.
    fn build_library(&self) -> Result<(), Halt> {
        let build = self.test_build(&["--lib"])?;
        if !build.status.success() {
            let (status, message) = gate::explain(&String::from_utf8_lossy(&build.stderr));
            return Err(zero_points(status, message));
        }
        Ok(())
    }

    /// Phase 5: the hidden tests with fresh tokens, built without rebuilding the library; then
    /// their executables and source are made unreadable. Returns the tokens by test name.
    fn build_hidden(&self, ex: &Exercise) -> Result<BTreeMap<String, String>, Halt> {
        let tokens: BTreeMap<String, String> = ex
            .meta
            .points
            .keys()
            .map(|name| sandbox::token().map(|t| (name.clone(), t)))
            .collect::<Result<_, _>>()?;
        let hidden_rs = self.crate_dir.join("tests/hidden.rs");
        catalog::write(&hidden_rs, &staff_files::hidden_source(ex, &tokens)?)
            .map_err(GradeError::from)?;
        let build = self.test_build(&["--test", "hidden", "--message-format", "json"])?;
        if !build.status.success() {
            let message = "Your code builds, but the hidden tests could not be compiled against \
                           it. Keep the names and signatures of the stub's public items.";
            return Err(zero_points("did not build", message));
        }
        let executables =
            library_not_rebuilt(&String::from_utf8_lossy(&build.stdout), &self.package)?;
        // The running tests may execute their binary but not read it (which also makes the
        // process undumpable: no /proc/self/exe or /proc/self/mem), nor read the hidden tests'
        // source. Cargo only needs their modification times to see that they are fresh.
        for exe in executables {
            let host = exe
                .strip_prefix(sandbox::TARGET)
                .map(|rel| self.target.join(rel))
                .map_err(|_| {
                    GradeError::Setup(format!("{}: not in the target folder", exe.display()))
                })?;
            sandbox::set_mode(&host, 0o111)?;
        }
        sandbox::set_mode(&hidden_rs, 0o000)?;
        Ok(tokens)
    }

    /// Phase 6: run the hidden tests, sandboxed, through the runner; nextest's JUnit report
    /// says what each test did.
    fn run_hidden_tests(
        &mut self,
        ex: &Exercise,
        tokens: &BTreeMap<String, String>,
    ) -> Result<Vec<Case>, Halt> {
        // Tests of the grader only: hand the tokens to the tests, as a submission that read
        // them out of its own memory would have them, to show that records still decide.
        if self.options.leak_tokens {
            let all: Vec<String> = tokens.iter().map(|(n, t)| format!("{n}={t}")).collect();
            self.sandbox
                .extra_env
                .push(("GRADE_TOKENS".into(), all.join(",")));
        }
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
            &self.package,
            "--test",
            "hidden",
            "--no-fail-fast",
        ];
        let ran = self.sandbox.cargo(&run_args, limit, true)?;
        if self.options.debug {
            // For staff only: the hidden tests' own output, never shown to students.
            eprintln!("{}", String::from_utf8_lossy(&ran.stderr));
        }
        let junit_path = self.run.path.join("ws/store/grade/junit.xml");
        let Ok(junit) = fs::read_to_string(&junit_path) else {
            // nextest writes its report whatever the tests do: no report is the grader's
            // failure.
            eprintln!(
                "grader: nextest wrote no report:\n{}",
                String::from_utf8_lossy(&ran.stderr)
            );
            let message = "The grader could not run the tests (a problem on the grading \
                           machine, not in your code): ask your teacher to look at the grader's \
                           log.";
            return Err(zero_points("not run", message));
        };
        let cases = junit::parse(&junit).map_err(|e| GradeError::Format {
            what: format!("reading {}", junit_path.display()),
            source: Box::new(e),
        })?;
        Ok(cases)
    }
}

/// Phase 7: score each expected test (it ran, passed and printed its token), and collect every
/// test's records for the comparison with the reference solution's.
fn score(
    ex: &Exercise,
    package: &str,
    cases: &[Case],
    tokens: &BTreeMap<String, String>,
) -> (Vec<TestResult>, Records) {
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
    (tests, records)
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
        let path = paths::runs(root).join(format!("{}-{}", ex.slug(), sandbox::token()?));
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
