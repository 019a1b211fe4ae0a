//! Shared by the grader's tests: the course root and the grader binary. The grader needs no root
//! (its sandbox is bubblewrap in an unprivileged user namespace).
// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The course root: the workspace folder above `xtask/grader/`.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("xtask/grader lies two folders below the course root")
        .to_path_buf()
}

/// A test's scratch folder `target/<name>`, emptied, with the paths of its `roster` and `out`
/// folders (neither created): `(work, roster, out)`.
pub fn scratch(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let work = root().join("target").join(name);
    let _ = fs::remove_dir_all(&work);
    let (roster, out) = (work.join("roster"), work.join("out"));
    (work, roster, out)
}

/// A finished command's stdout and stderr, as one text to search.
pub fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The grader, with these extra environment variables.
pub fn grader(env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grader"));
    cmd.envs(env.iter().copied());
    cmd
}

/// A submission folder `roster/<student>/exercises/<id>` holding the stub of exercise `id`,
/// with the reference solution copied over it when `solved`.
pub fn submission(roster: &Path, student: &str, id: &str, solved: bool) -> PathBuf {
    let ex = root().join("exercises").join(id);
    let dir = roster.join(student).join("exercises").join(id);
    copy_dir(&ex.join("src"), &dir.join("src"));
    if solved {
        copy_dir(&ex.join("grading/solution"), &dir.join("src"));
    }
    dir
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let dest = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            fs::copy(&path, &dest).unwrap();
        }
    }
}

/// Adds `code` at the end of a file of the submission.
pub fn append(dir: &Path, file: &str, code: &str) {
    let path = dir.join(file);
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{text}\n{code}\n")).unwrap();
}

/// Grades `roster` (one exercise, or all) into `out` and checks that the grader itself succeeded.
pub fn grade_roster(roster: &Path, exercise: Option<&str>, out: &Path, env: &[(&str, &str)]) {
    let mut cmd = grader(env);
    cmd.args(["grade", "--roster"])
        .arg(roster)
        .arg("--out")
        .arg(out);
    if let Some(id) = exercise {
        cmd.args(["--exercise", id]);
    }
    let status = cmd.status().unwrap();
    assert!(status.success(), "the grader itself failed");
}

/// A student's `results.json` for an exercise: (score, whole report).
pub fn results(out: &Path, student: &str, id: &str) -> (u32, serde_json::Value) {
    let path = out
        .join(student)
        .join(id.replace('/', "_"))
        .join("results.json");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    (value["score"].as_u64().unwrap() as u32, value)
}
