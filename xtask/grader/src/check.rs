//! `cargo xtask check-exercises`: every stub compiles and fails its public and hidden tests;
//! every reference solution passes both (printing each hidden test's token).
//!
//! Stubs, wrong solutions and reference solutions are built one after another in one scratch
//! workspace under `target/exercise-check/` (solutions copied over the stubs there; the tree is
//! never edited), sharing one target folder with the grader so dependencies are compiled once.
//! A wrong solution replaces only its own exercise in that workspace. One folder keeps each
//! exercise's package at one path, so a variant's test binaries replace the last one's instead
//! of piling up beside them, and the same members keep the dependencies' features the same, so
//! wgpu is compiled once, not again for each exercise's wrong solutions. (With a folder per
//! variant the check left some 180 test binaries, tens of MB each, and five more builds of wgpu:
//! more than a small CI machine's disk has to spare.)

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use student::catalog::{self, Exercise};
use student::junit::{self, Case};

use crate::error::GradeError;
use crate::workspace::{self, CoursePaths, Targets};
use crate::{sandbox, staff_files};

#[derive(Clone, Copy, PartialEq)]
enum Variant<'a> {
    Stub,
    Solution,
    /// `grading/wrong/<name>/`: a plausible wrong solution (its files laid over the reference
    /// solution's), which must lose points.
    Wrong(&'a str),
}

pub fn run(root: &Path, only: Option<&str>) -> Result<(), GradeError> {
    let exercises = match only {
        Some(id) => vec![catalog::find(root, id)?],
        None => catalog::all(root)?,
    };
    let start = Instant::now();
    let mut problems = Vec::new();
    for ex in &exercises {
        problems.extend(static_checks(ex)?);
    }
    // One check at a time: two checks of one exercise would build the same test binaries (Cargo
    // names a member by its path inside the workspace) and delete them under each other.
    let _lock = crate::paths::exclusive_lock(&root.join("target/exercise-check.lock"))?;
    let scope = scope(&exercises);
    let ws = check_workspace(root, &scope);
    let _forget = ForgetTestBinaries { root, ws: &ws };
    let stubs = check_variant(root, &ws, &exercises, None, Variant::Stub)?;
    problems.extend(stubs.problems);
    let mut wrong_count = 0;
    for ex in &exercises {
        let wrongs = wrong_solutions(ex)?;
        if !stubs.built && !wrongs.is_empty() {
            problems.push(format!(
                "{}: its {} wrong solutions were not tried, since the stubs did not build",
                ex.id,
                wrongs.len()
            ));
            continue;
        }
        for name in &wrongs {
            wrong_count += 1;
            let wrong = check_variant(root, &ws, &exercises, Some(ex), Variant::Wrong(name))?;
            problems.extend(wrong.problems);
        }
        if !wrongs.is_empty() {
            // Back to the stub, so that this exercise's last wrong solution is not what the next
            // exercise's wrong solutions are built beside.
            rewrite_member(&ws, ex, Variant::Stub)?;
        }
    }
    // The solutions last: the workspace they leave is the one `mutants` works in.
    let solutions = check_variant(root, &ws, &exercises, None, Variant::Solution)?;
    problems.extend(solutions.problems);
    if problems.is_empty() {
        println!(
            "check-exercises: {} exercises OK (stubs fail, solutions pass, {wrong_count} wrong \
             solutions lose points) in {:.1} s",
            exercises.len(),
            start.elapsed().as_secs_f64()
        );
        Ok(())
    } else {
        Err(format!(
            "check-exercises found problems:\n- {}",
            problems.join("\n- ")
        )
        .into())
    }
}

/// A stub must not contain its solution, and every exercise needs its files.
fn static_checks(ex: &Exercise) -> Result<Vec<String>, GradeError> {
    let mut problems = Vec::new();
    for needed in [
        "README.md",
        "tests/public.rs",
        "grading/hidden.rs",
        "src/lib.rs",
    ] {
        if !ex.dir.join(needed).is_file() {
            problems.push(format!("{}: {needed} is missing", ex.id));
        }
    }
    let solution = ex.dir.join("grading/solution");
    let files = if solution.is_dir() {
        catalog::files_under(&solution)?
    } else {
        Vec::new()
    };
    let differs = files.iter().any(|rel| {
        let stub = fs::read(ex.dir.join("src").join(rel)).unwrap_or_default();
        let sol = fs::read(solution.join(rel)).unwrap_or_default();
        stub != sol
    });
    if !differs {
        problems.push(format!(
            "{}: grading/solution/ is missing or identical to src/",
            ex.id
        ));
    }
    for rel in ex.given_in_src() {
        if solution.join(&rel).exists() {
            problems.push(format!(
                "{}: src/{} is given (staff-owned), so grading/solution/ must not replace it",
                ex.id,
                rel.display()
            ));
        }
    }
    let hidden = fs::read_to_string(ex.dir.join("grading/hidden.rs")).unwrap_or_default();
    for name in ex.meta.points.keys() {
        if !hidden.contains(&format!("grade_ok!(\"{name}\")")) {
            problems.push(format!(
                "{}: hidden test {name} never calls grade_ok!(\"{name}\")",
                ex.id
            ));
        }
        if !name.contains(ex.id.split('/').nth(1).unwrap_or_default()) {
            problems.push(format!(
                "{}: test name {name} does not carry the exercise's name",
                ex.id
            ));
        }
    }
    Ok(problems)
}

/// The names of an exercise's wrong solutions (`grading/wrong/<name>/`).
pub fn wrong_solutions(ex: &Exercise) -> Result<Vec<String>, GradeError> {
    let dir = ex.dir.join("grading/wrong");
    let Ok(entries) = fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names)
}

/// Builds `exercises` in `variant` (stub, solution or a wrong solution) in the check's scratch
/// workspace, runs their public and hidden tests, and says what is wrong. With `only`, the
/// previous variant's workspace is kept and only that exercise is rewritten and tested: the other
/// members stay built, and Cargo unifies the dependencies' features over the same members, so
/// wgpu and the rest are not compiled again for every wrong solution.
fn check_variant(
    root: &Path,
    ws: &Path,
    exercises: &[Exercise],
    only: Option<&Exercise>,
    variant: Variant,
) -> Result<Checked, GradeError> {
    let label = match (variant, only) {
        (Variant::Stub, _) => "stubs".to_string(),
        (Variant::Solution, _) => "solutions".to_string(),
        (Variant::Wrong(name), Some(ex)) => format!("wrong solution {name} of {}", ex.id),
        (Variant::Wrong(name), None) => format!("wrong solution {name}"),
    };
    let mut tokens: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let (judged, filter) = match only {
        Some(ex) => {
            tokens.insert(ex.id.clone(), rewrite_member(ws, ex, variant)?);
            let filter = format!("package(={})", ex.package());
            (std::slice::from_ref(ex), Some(filter))
        }
        None => {
            fresh_workspace(root, ws, exercises)?;
            for ex in exercises {
                tokens.insert(ex.id.clone(), write_member(ws, ex, variant)?);
            }
            workspace::prune_lock(root, ws)?;
            catalog::write(&ws.join(".config/nextest.toml"), &nextest_config(exercises))?;
            (exercises, None)
        }
    };
    let junit_path = ws.join("store/check/junit.xml");
    // A kept workspace still has the last variant's report: it must not stand in for this one's.
    match fs::remove_file(&junit_path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("removing {}: {e}", junit_path.display()).into());
        }
        _ => {}
    }
    let output = run_tests(root, ws, filter.as_deref())?;
    let Ok(xml) = fs::read_to_string(&junit_path) else {
        return Ok(Checked {
            problems: vec![format!(
                "the {label} did not build:\n{}",
                String::from_utf8_lossy(&output.stderr)
            )],
            built: false,
        });
    };
    let cases = junit::parse(&xml).map_err(|e| format!("{}: {e}", junit_path.display()))?;
    let mut problems = Vec::new();
    if variant == Variant::Solution {
        problems.extend(gate_problem(root, ws)?);
    }
    for ex in judged {
        match variant {
            Variant::Wrong(name) => {
                problems.extend(judge_wrong(ex, name, &cases, &tokens[&ex.id]));
            }
            _ => problems.extend(judge(ex, &cases, &tokens[&ex.id], variant)),
        }
    }
    Ok(Checked {
        problems,
        built: true,
    })
}

/// What one variant of a check found, and whether it built at all.
struct Checked {
    problems: Vec<String>,
    built: bool,
}

/// Deletes the test binaries of the check's workspace when the check ends, however it ends.
/// The next check rewrites the sources, so they would be rebuilt anyway; kept, 50-odd binaries
/// (wgpu linked into most) sit in the shared target folder for nothing. Best effort: a binary
/// that cannot be listed or deleted costs disk, not correctness.
struct ForgetTestBinaries<'a> {
    root: &'a Path,
    ws: &'a Path,
}

impl Drop for ForgetTestBinaries<'_> {
    fn drop(&mut self) {
        let Ok(listed) = Command::new(workspace::cargo())
            .args(["nextest", "list", "--workspace", "--locked", "--offline"])
            .args(["--list-type", "binaries-only", "--message-format", "json"])
            .env("CARGO_TARGET_DIR", workspace::shared_target(self.root))
            .current_dir(self.ws)
            .output()
        else {
            return;
        };
        let Ok(list) = serde_json::from_slice::<serde_json::Value>(&listed.stdout) else {
            return;
        };
        let binaries = list["rust-binaries"].as_object().into_iter().flatten();
        for (_, binary) in binaries {
            if let Some(path) = binary["binary-path"].as_str() {
                let _ = fs::remove_file(path);
            }
        }
    }
}

/// The folder name of a check: one exercise checked alone gets its own folder, so that checks
/// of different exercises can run side by side (they still take turns on the shared target
/// folder).
fn scope(exercises: &[Exercise]) -> String {
    match exercises {
        [one] => one.slug(),
        _ => "all".to_string(),
    }
}

/// The scratch workspace of a check (every variant of it is built there, one after another).
fn check_workspace(root: &Path, scope: &str) -> PathBuf {
    root.join("target/exercise-check").join(scope)
}

/// The workspace a check of `ex` alone leaves behind: its reference solution, built and tested.
pub fn solution_workspace(root: &Path, ex: &Exercise) -> PathBuf {
    check_workspace(root, &ex.slug())
}

/// An empty scratch workspace for one variant of a check, with its root manifest listing
/// `exercises` (every variant of a check uses the same folder; see the module's comment).
fn fresh_workspace(root: &Path, ws: &Path, exercises: &[Exercise]) -> Result<(), GradeError> {
    if ws.exists() {
        fs::remove_dir_all(ws).map_err(|e| format!("cleaning {}: {e}", ws.display()))?;
    }
    let members: Vec<String> = exercises
        .iter()
        .map(|e| format!("ex/{}", e.slug()))
        .collect();
    catalog::write(
        &ws.join("Cargo.toml"),
        &workspace::root_manifest(root, &members, CoursePaths::Absolute)?,
    )?;
    Ok(())
}

/// Replaces one exercise of a kept workspace by `variant` (its folder removed first, so no file
/// of the variant before stays behind); returns its hidden tests' tokens as `write_member` does.
fn rewrite_member(
    ws: &Path,
    ex: &Exercise,
    variant: Variant,
) -> Result<BTreeMap<String, String>, GradeError> {
    let member = ws.join("ex").join(ex.slug());
    fs::remove_dir_all(&member).map_err(|e| format!("cleaning {}: {e}", member.display()))?;
    write_member(ws, ex, variant)
}

/// Writes one exercise into the workspace: its manifest, the stub's sources with the
/// variant's files laid over them, the public tests and the hidden tests with fresh tokens
/// (returned by test name).
fn write_member(
    ws: &Path,
    ex: &Exercise,
    variant: Variant,
) -> Result<BTreeMap<String, String>, GradeError> {
    let dir = ws.join("ex").join(ex.slug());
    let targets = Targets {
        public: true,
        hidden: true,
    };
    catalog::write(
        &dir.join("Cargo.toml"),
        &workspace::exercise_manifest(ex, targets)?,
    )?;
    for rel in catalog::files_under(&ex.dir.join("src"))? {
        catalog::copy_file(&ex.dir.join("src").join(&rel), &dir.join("src").join(&rel))?;
    }
    let mut overlays = Vec::new();
    if variant != Variant::Stub {
        overlays.push(ex.dir.join("grading/solution"));
    }
    if let Variant::Wrong(name) = variant {
        overlays.push(ex.dir.join("grading/wrong").join(name));
    }
    for layer in overlays {
        for rel in catalog::files_under(&layer)? {
            catalog::copy_file(&layer.join(&rel), &dir.join("src").join(&rel))?;
        }
    }
    catalog::copy_file(
        &ex.dir.join("tests/public.rs"),
        &dir.join("tests/public.rs"),
    )?;
    let tokens: BTreeMap<String, String> = ex
        .meta
        .points
        .keys()
        .map(|n| sandbox::token().map(|t| (n.clone(), t)))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    catalog::write(
        &dir.join("tests/hidden.rs"),
        &staff_files::hidden_source(ex, &tokens)?,
    )?;
    Ok(tokens)
}

/// The workspace's tests (all, or those `filter` selects), through nextest; the whole workspace
/// is built either way. Its JUnit report lands in `store/check/`.
fn run_tests(
    root: &Path,
    ws: &Path,
    filter: Option<&str>,
) -> Result<std::process::Output, GradeError> {
    let mut cmd = Command::new(workspace::cargo());
    cmd.args([
        "nextest",
        "run",
        "--workspace",
        "--locked",
        "--offline",
        "--profile",
        "check",
    ])
    .args(["--config-file", ".config/nextest.toml", "--no-fail-fast"])
    .env("CARGO_TARGET_DIR", workspace::shared_target(root))
    .env("NEXTEST_HIDE_PROGRESS_BAR", "1")
    .current_dir(ws);
    if let Some(filter) = filter {
        cmd.args(["-E", filter]);
    }
    let output = cmd
        .output()
        .map_err(|e| format!("running cargo nextest (is cargo-nextest installed?): {e}"))?;
    Ok(output)
}

/// The solutions must pass the grader's static gate (this also builds the dependencies'
/// metadata that the gate needs, so the first grading does not).
fn gate_problem(root: &Path, ws: &Path) -> Result<Option<String>, GradeError> {
    catalog::write(&ws.join("clippy/clippy.toml"), crate::gate::CLIPPY_TOML)?;
    let gate = Command::new(workspace::cargo())
        .args([
            "clippy",
            "--workspace",
            "--lib",
            "--locked",
            "--offline",
            "--profile",
            "test",
        ])
        .args(["--", "-A", "warnings", "-F", "clippy::disallowed_methods"])
        .args(["-F", "clippy::disallowed_types"])
        .env("CARGO_TARGET_DIR", workspace::shared_target(root))
        .env("CLIPPY_CONF_DIR", ws.join("clippy"))
        .current_dir(ws)
        .output()
        .map_err(|e| format!("running cargo clippy: {e}"))?;
    Ok((!gate.status.success()).then(|| {
        format!(
            "the solutions do not pass the grader's static gate:\n{}",
            String::from_utf8_lossy(&gate.stderr)
        )
    }))
}

fn judge(
    ex: &Exercise,
    cases: &[Case],
    tokens: &BTreeMap<String, String>,
    variant: Variant,
) -> Vec<String> {
    let mut problems = Vec::new();
    let package = ex.package();
    let public: Vec<&Case> = cases
        .iter()
        .filter(|c| c.suite == format!("{package}::public"))
        .collect();
    let hidden: Vec<&Case> = cases
        .iter()
        .filter(|c| c.suite == format!("{package}::hidden"))
        .collect();
    if public.is_empty() {
        problems.push(format!("{}: no public tests ran", ex.id));
    }
    let names: Vec<&String> = hidden.iter().map(|c| &c.name).collect();
    let expected: Vec<&String> = ex.meta.points.keys().collect();
    let mut sorted = names.clone();
    sorted.sort();
    if sorted != expected {
        problems.push(format!(
            "{}: hidden tests {sorted:?} differ from exercise.toml's [points] {expected:?}",
            ex.id
        ));
    }
    let what = |c: &Case| {
        if c.suite.ends_with("::public") {
            "public"
        } else {
            "hidden"
        }
    };
    for case in public.iter().chain(&hidden) {
        let token_ok = tokens.get(&case.name).is_none_or(|t| {
            case.stdout
                .lines()
                .any(|l| l.trim_end() == format!("GRADE-OK {t}"))
        });
        let passed = case.failure.is_none() && token_ok;
        match variant {
            Variant::Stub if case.failure.is_none() => problems.push(format!(
                "{}: the stub passes the {} test {}",
                ex.id,
                what(case),
                case.name
            )),
            // The grader keeps 1 MiB of a test's output: records must fit well inside it.
            Variant::Solution if case.stdout.len() > 512 * 1024 => problems.push(format!(
                "{}: the {} test {} prints {} KiB with the solution; the grader keeps 1 MiB of a \
                 test's output: record samples, not whole large values",
                ex.id,
                what(case),
                case.name,
                case.stdout.len() / 1024
            )),
            Variant::Solution if !passed => problems.push(format!(
                "{}: the solution fails the {} test {}{}",
                ex.id,
                what(case),
                case.name,
                if case.failure.is_none() {
                    " (no token printed)"
                } else {
                    ""
                }
            )),
            _ => {}
        }
    }
    problems
}

/// A wrong solution must build and lose points: at least one hidden test fails.
fn judge_wrong(
    ex: &Exercise,
    name: &str,
    cases: &[Case],
    tokens: &BTreeMap<String, String>,
) -> Vec<String> {
    let suite = format!("{}::hidden", ex.package());
    // Only a test seen failing is a point lost: one that did not run, or passed without this
    // run's token (a stale binary), says nothing about the wrong solution.
    let mut lost = Vec::new();
    let mut unseen = Vec::new();
    for (test, token) in ex.meta.points.keys().map(|t| (t, &tokens[t])) {
        let token = format!("GRADE-OK {token}");
        match cases.iter().find(|c| c.suite == suite && &c.name == test) {
            None => unseen.push(format!("{test} did not run")),
            Some(c) if c.failure.is_some() => lost.push(test.as_str()),
            Some(c) if c.stdout.lines().any(|l| l.trim_end() == token) => {}
            Some(_) => unseen.push(format!("{test} passed without this run's token")),
        }
    }
    if !unseen.is_empty() {
        return vec![format!(
            "{}: against the wrong solution grading/wrong/{name}, {}",
            ex.id,
            unseen.join("; ")
        )];
    }
    if lost.is_empty() {
        vec![format!(
            "{}: the wrong solution grading/wrong/{name} passes every hidden test",
            ex.id
        )]
    } else {
        println!("{}: wrong solution {name} fails {}", ex.id, lost.join(", "));
        Vec::new()
    }
}

fn nextest_config(exercises: &[Exercise]) -> String {
    let gpu: Vec<String> = exercises
        .iter()
        .filter(|e| e.meta.gpu)
        .map(|e| format!("package({})", e.package()))
        .collect();
    let mut text = String::from(
        "# Written by `cargo xtask check-exercises`.\n[store]\ndir = \"store\"\n\n\
         [test-groups]\ngpu = { max-threads = 1 }\n\n[profile.check]\nretries = 0\nfail-fast = false\n\
         slow-timeout = { period = \"60s\", terminate-after = 4 }\nstatus-level = \"fail\"\n\
         failure-output = \"never\"\n\n[profile.check.junit]\npath = \"junit.xml\"\n\
         store-success-output = true\n",
    );
    if !gpu.is_empty() {
        text.push_str(&format!(
            "\n[[profile.check.overrides]]\nfilter = \"{}\"\ntest-group = \"gpu\"\n",
            gpu.join(" | ")
        ));
    }
    text
}
