use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask has a parent folder")
        .to_path_buf()
}

/// Where `cargo xtask book` installs the pinned mdbook tools (git-ignored).
pub fn tools_bin() -> PathBuf {
    root().join(".tools").join("bin")
}

/// `PATH` with the local tools folder first, so the pinned mdbook and mdbook-katex win.
pub fn path_with_tools() -> std::ffi::OsString {
    let mut paths = vec![tools_bin()];
    if let Some(path) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(paths).unwrap_or_default()
}

/// A cargo command run from the repository root.
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// Runs a command, echoing it first; a failure names the step and what to do about it.
pub fn run_step(cmd: &mut Command, step: &str, fix: &str) -> Result<(), String> {
    eprintln!("\n==> {step}\n    $ {}", describe(cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("{step}: could not start `{}`: {e}. {fix}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{step} failed ({status}). {fix}"))
    }
}

/// Runs a command and returns its stdout, or None if it could not run or failed.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

pub fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        s.push(' ');
        s.push_str(&arg.to_string_lossy());
    }
    s
}

/// Workspace packages under `code/` as (package name, folder).
pub fn code_packages() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(root().join("code")) else {
        return out;
    };
    for entry in entries.flatten() {
        let dir = entry.path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        if let Some(name) = manifest_value(&manifest, "package", "name") {
            out.push((name, dir));
        }
    }
    out.sort();
    out
}

/// The string value of `key` in `[section]` of a simple TOML manifest.
pub fn manifest_value(manifest: &str, section: &str, key: &str) -> Option<String> {
    let mut in_section = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == format!("[{section}]");
        } else if in_section
            && let Some((k, v)) = line.split_once('=')
            && k.trim() == key
        {
            return Some(v.trim().trim_matches('"').to_owned());
        }
    }
    None
}
