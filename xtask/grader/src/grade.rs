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

use super::catalog::{self, Exercise};
use super::report::{self, Outcome, TestResult};
use super::sandbox::{self, Sandbox};
use super::submission;
use super::workspace::{self, CoursePaths, Targets};

pub fn run(
    root: &Path,
    exercise: &str,
    submission: &Path,
    out: Option<PathBuf>,
) -> Result<(), String> {
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

/// Grades one submission folder. `Err` only for the grader's own failures (not root, cargo
/// missing); a submission that does not build is an `Ok` outcome with zero points.
pub fn grade_one(root: &Path, ex: &Exercise, submission_dir: &Path) -> Result<Outcome, String> {
    sandbox::require_root()?;
    let start = Instant::now();
    let taken = match submission::take(submission_dir) {
        Ok(t) => t,
        Err(message) => {
            return Ok(Outcome::all_failed(
                ex,
                "no submission",
                message,
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
    let forbidden = submission::forbidden_uses(&taken.files);
    if !forbidden.is_empty() {
        return Ok(Outcome::all_failed(
            ex,
            "refused",
            forbidden.join("\n"),
            notes,
        ));
    }
    if taken.files.is_empty() {
        let msg = format!("no source files under {}/src", submission_dir.display());
        return Ok(Outcome::all_failed(ex, "no submission", msg, notes));
    }

    // A fresh grading folder from staff files; then the student's sources. One grading of an
    // exercise at a time: the lock waits for any other.
    let work = root.join("target/grading").join(ex.slug());
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let lock_path = work.with_extension("lock");
    let lock = fs::File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("locking {}: {e}", lock_path.display()))?;
    let ws = work.join("ws");
    if ws.exists() {
        fs::remove_dir_all(&ws).map_err(|e| format!("cleaning {}: {e}", ws.display()))?;
    }
    let crate_dir = ws.join("exercise");
    catalog::write(
        &ws.join("Cargo.toml"),
        &workspace::root_manifest(root, &["exercise".into()], CoursePaths::Absolute)?,
    )?;
    catalog::write(
        &crate_dir.join("Cargo.toml"),
        &workspace::exercise_manifest(
            ex,
            Targets {
                public: false,
                hidden: true,
            },
        )?,
    )?;
    workspace::prune_lock(root, &ws)?;
    for (rel, bytes) in &taken.files {
        let path = crate_dir.join("src").join(rel);
        catalog::write(&path, "")?;
        fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    for rel in &given {
        catalog::copy_file(
            &ex.dir.join("src").join(rel),
            &crate_dir.join("src").join(rel),
        )?;
    }
    catalog::write(&ws.join(".config/nextest.toml"), &nextest_config(ex))?;
    let store = ws.join("store");
    fs::create_dir_all(&store).map_err(|e| e.to_string())?;
    sandbox::set_mode(&store, 0o700)?;
    let hide = vec![root.join("exercises"), root.join("target/exercise-check")];
    let sb = Sandbox::new(&ws, hide, workspace::shared_target(root), ex.meta.gpu)?;
    let package = ex.package();

    // The static gate: no files, processes, network, environment or exit from the library.
    if std::env::var_os("XTASK_GRADE_NO_STATIC_GATE").is_none()
        && let Some(message) = super::gate::check(&sb, &ws, &package, &crate_dir)?
    {
        let mut o = Outcome::all_failed(ex, "refused", message, notes);
        o.seconds = start.elapsed().as_secs_f64();
        return Ok(o);
    }

    // Phase 1: the library alone; the hidden tests do not exist yet.
    let build = sb.cargo(
        &ws,
        &[
            "build",
            "--locked",
            "--offline",
            "--profile",
            "test",
            "-p",
            &package,
            "--lib",
        ],
        900,
        false,
    )?;
    if !build.status.success() {
        let message = compiler_message(&String::from_utf8_lossy(&build.stderr), &crate_dir);
        let mut o = Outcome::all_failed(ex, "did not build", message, notes);
        o.seconds = start.elapsed().as_secs_f64();
        return Ok(o);
    }

    // Phase 2: the hidden tests, with fresh tokens, readable only by root.
    let tokens: BTreeMap<String, String> = ex
        .meta
        .points
        .keys()
        .map(|name| sandbox::token().map(|t| (name.clone(), t)))
        .collect::<Result<_, _>>()?;
    let tests_dir = crate_dir.join("tests");
    catalog::write(&tests_dir.join("hidden.rs"), &hidden_source(ex, &tokens)?)?;
    sandbox::set_mode(&tests_dir.join("hidden.rs"), 0o600)?;
    sandbox::set_mode(&tests_dir, 0o700)?;
    let build = sb.cargo(
        &ws,
        &[
            "build",
            "--locked",
            "--offline",
            "--profile",
            "test",
            "-p",
            &package,
            "--test",
            "hidden",
            "--message-format",
            "json",
        ],
        900,
        false,
    )?;
    if !build.status.success() {
        let message = "Your code builds, but the hidden tests could not be compiled against it. \
                       Keep the names and signatures of the stub's public items."
            .to_string();
        let mut o = Outcome::all_failed(ex, "did not build", message, notes);
        o.seconds = start.elapsed().as_secs_f64();
        return Ok(o);
    }
    protect_test_binaries(&String::from_utf8_lossy(&build.stdout), &package)?;

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
    let ran = sb.cargo(&ws, &run_args, limit, true)?;
    if std::env::var_os("XTASK_GRADE_DEBUG").is_some() {
        // For staff only: the hidden tests' own output, never shown to students.
        eprintln!("{}", String::from_utf8_lossy(&ran.stderr));
    }
    let Ok(junit) = fs::read_to_string(store.join("grade/junit.xml")) else {
        // nextest writes its report whatever the tests do: no report is the grader's failure.
        eprintln!(
            "grader: nextest wrote no report:\n{}",
            String::from_utf8_lossy(&ran.stderr)
        );
        let _ = fs::remove_dir_all(&tests_dir);
        let message = "The grader could not run the tests (a problem on the grading machine, \
                       not in your code): ask your teacher to look at the grader's log."
            .to_string();
        let mut o = Outcome::all_failed(ex, "not run", message, notes);
        o.seconds = start.elapsed().as_secs_f64();
        return Ok(o);
    };
    let cases = super::junit::parse(&junit);
    let suite = format!("{package}::hidden");
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
    // The hidden tests and their tokens do not outlive the grading.
    let _ = fs::remove_dir_all(&tests_dir);
    Ok(Outcome {
        exercise: ex.id.clone(),
        tests,
        build_error: None,
        notes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Staff hidden tests with the `grade_ok!` macro put in front: each test's last act prints
/// `GRADE-OK <token>` for its own name.
pub fn hidden_source(ex: &Exercise, tokens: &BTreeMap<String, String>) -> Result<String, String> {
    let path = ex.dir.join("grading/hidden.rs");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut arms = String::new();
    for (name, token) in tokens {
        arms.push_str(&format!("        \"{name}\" => \"{token}\",\n"));
    }
    let prelude = format!(
        "// Put here by the grader: prints this run's token for a test, as the test's last act.\n\
         macro_rules! grade_ok {{\n    ($name:literal) => {{\n        \
         ::std::println!(\"GRADE-OK {{}}\", grade_token($name))\n    }};\n}}\n\n\
         #[allow(dead_code)]\nfn grade_token(name: &str) -> &'static str {{\n    match name {{\n{arms}        \
         _ => \"not-an-expected-test\",\n    }}\n}}\n\n"
    );
    // Inner attributes and `//!` docs must stay first in the file.
    let mut head = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.peek() {
        let t = line.trim_start();
        if t.starts_with("//!") || t.starts_with("#![") || t.is_empty() {
            head.push_str(line);
            head.push('\n');
            lines.next();
        } else {
            break;
        }
    }
    let rest: Vec<&str> = lines.collect();
    Ok(format!("{head}\n{prelude}{}\n", rest.join("\n")))
}

/// The grade profile: no retries, per-test timeouts, leaked processes fail, output stored.
fn nextest_config(ex: &Exercise) -> String {
    let half = ex.timeout_s().div_ceil(2);
    let threads = if ex.meta.gpu { "1" } else { "\"num-cpus\"" };
    format!(
        "# Written by `cargo xtask grade`.\n[store]\ndir = \"store\"\n\n[profile.grade]\nretries = 0\n\
         fail-fast = false\ntest-threads = {threads}\n\
         slow-timeout = {{ period = \"{half}s\", terminate-after = 2 }}\n\
         leak-timeout = {{ period = \"500ms\", result = \"fail\" }}\n\
         status-level = \"none\"\nfinal-status-level = \"none\"\n\
         failure-output = \"never\"\nsuccess-output = \"never\"\n\n\
         [profile.grade.junit]\npath = \"junit.xml\"\nstore-success-output = true\n\
         store-failure-output = true\n"
    )
}

/// Makes the hidden test binary executable but unreadable for the test user: a process whose
/// executable it cannot read is not dumpable, so its code cannot read its own binary or memory
/// through /proc to find the tokens.
fn protect_test_binaries(cargo_json: &str, package: &str) -> Result<(), String> {
    for line in cargo_json.lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        let ours = msg["target"]["name"] == package.to_string().as_str()
            || msg["package_id"].as_str().is_some_and(|id| {
                id.contains(&format!("#{package}@")) || id.contains(&format!("/{package}#"))
            });
        let kinds: Vec<&str> = msg["target"]["kind"]
            .as_array()
            .map(|a| a.iter().filter_map(|k| k.as_str()).collect())
            .unwrap_or_default();
        if ours && kinds.contains(&"lib") && msg["fresh"] != true {
            return Err(
                "grader error: the library was rebuilt after the hidden tests were added".into(),
            );
        }
        if let Some(exe) = msg["executable"].as_str() {
            sandbox::set_mode(Path::new(exe), 0o711)?;
        }
    }
    Ok(())
}

/// The compiler's errors, with the grading folder's paths shortened to the student's.
pub fn compiler_message(stderr: &str, crate_dir: &Path) -> String {
    let prefix = format!("{}/", crate_dir.display());
    let kept: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            !l.trim_start().starts_with("Compiling ") && !l.trim_start().starts_with("Blocking ")
        })
        .collect();
    let mut text = kept.join("\n").replace(&prefix, "");
    if text.len() > 8000 {
        text.truncate(8000);
        text.push_str("\n… (cut)");
    }
    format!("Your code did not compile:\n{text}")
}

fn failure_words(kind: &str) -> String {
    match kind {
        k if k.contains("timeout") => "timed out".into(),
        k if k.contains("abort") || k.contains("signal") => "crashed".into(),
        k if k.contains("leak") => "left processes running".into(),
        _ => "failed".into(),
    }
}
