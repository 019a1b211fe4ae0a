//! The few process helpers every xtask command shares (and xtask's tests, through the library).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// The repository root (this crate lives at `xtask/system`, two levels below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("xtask/system has a grandparent folder")
        .to_path_buf()
}

/// A cargo command run from the repository root (the same cargo that runs xtask).
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// Whether this process runs as root (then system packages can be installed directly).
pub fn is_root() -> bool {
    output(Command::new("id").arg("-u")).is_some_and(|uid| uid == "0")
}

/// Runs a command, echoing it first; a failure names the step and what to do about it.
pub fn run_step(cmd: &mut Command, step: &str, fix: &str) -> anyhow::Result<()> {
    eprintln!("\n==> {step}\n    $ {}", describe(cmd));
    let status = cmd
        .status()
        .with_context(|| format!("{step}: could not start `{}`. {fix}", describe(cmd)))?;
    if !status.success() {
        bail!("{step} failed ({status}). {fix}");
    }
    Ok(())
}

/// Runs a command and returns its trimmed stdout, or None if it could not run or failed.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The command line as a reader would type it.
pub fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A program found on `PATH` (with `.exe` on Windows).
pub fn on_path(program: &str) -> bool {
    which::which(program).is_ok()
}

/// Whether `dir` is one of `PATH`'s folders.
pub fn on_path_dir(dir: &Path) -> bool {
    path_dirs().iter().any(|d| d == dir)
}

fn path_dirs() -> Vec<PathBuf> {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default()
}

/// `cargo run --quiet -p PACKAGE -- SUBCOMMAND ARGS…`: the grader and the student tool are
/// crates of their own (`xtask/grader`, `xtask/student`); xtask only forwards to them.
pub fn forward(package: &str, subcommand: &str, args: &[String]) -> anyhow::Result<()> {
    let status = cargo()
        .args(["run", "--quiet", "-p", package, "--", subcommand])
        .args(args)
        .status()
        .with_context(|| format!("starting `cargo run -p {package}`"))?;
    if !status.success() {
        bail!("`{package} {subcommand}` failed ({status})");
    }
    Ok(())
}
