//! Exercise tooling: check-exercises, release, grade, progress, hint.
//!
//! Each command lives in its own file; `catalog` finds exercises and reads their `exercise.toml`,
//! `workspace` writes the scratch Cargo workspaces that checking, grading and releasing build in.

mod catalog;
mod check;
mod gate;
mod grade;
mod junit;
mod release;
mod report;
mod roster;
mod sandbox;
mod student;
mod submission;
mod workflow;
mod workspace;

use std::path::PathBuf;

pub fn run(command: &str, args: &[String]) -> Result<(), String> {
    let root = repo_root();
    match command {
        "check-exercises" => check::run(&root, args),
        "release" => release::run(&root, args),
        "grade" => grade::run(&root, args),
        "progress" => student::progress(&root, args),
        "hint" => student::hint(&root, args),
        other => Err(format!("`{other}` is not an exercise command")),
    }
}

/// The repository (or student edition) root: the folder above `xtask/`.
fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// The value after `--name` in `args`, if present.
fn flag(args: &[String], name: &str) -> Result<Option<String>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => args
            .get(i + 1)
            .filter(|v| !v.starts_with("--"))
            .cloned()
            .map(Some)
            .ok_or_else(|| format!("`{name}` needs a value")),
    }
}

/// Fails on any argument that is not one of `known` (flags that take values) or `switches`.
fn reject_unknown(args: &[String], known: &[&str], switches: &[&str]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if known.contains(&a) {
            i += 2;
        } else if switches.contains(&a) {
            i += 1;
        } else {
            return Err(format!(
                "unexpected argument `{a}` (expected one of: {})",
                known
                    .iter()
                    .chain(switches)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Ok(())
}
