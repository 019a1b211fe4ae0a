//! Shared by the grader's tests: the grader needs root, so on a machine where the tests run as a
//! user with password-less sudo (a GitHub Actions runner), it is started through `sudo -n`.
// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The course root: the workspace folder above `xtask/grader/`.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("xtask/grader lies two folders below the course root")
        .to_path_buf()
}

/// The grader, with these extra environment variables.
pub fn grader(env: &[(&str, &str)]) -> Command {
    if is_root() {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_grader"));
        cmd.envs(env.iter().copied());
        return cmd;
    }
    let home = std::env::var("HOME").unwrap_or_default();
    let var = |k: &str, default: String| format!("{k}={}", std::env::var(k).unwrap_or(default));
    let mut cmd = Command::new("sudo");
    cmd.args(["-n", "env"]);
    cmd.arg(var("PATH", "/usr/local/bin:/usr/bin:/bin".into()));
    cmd.arg(format!("HOME={home}"));
    cmd.arg(var("CARGO_HOME", format!("{home}/.cargo")));
    cmd.arg(var("RUSTUP_HOME", format!("{home}/.rustup")));
    cmd.args(env.iter().map(|(k, v)| format!("{k}={v}")));
    cmd.arg(env!("CARGO_BIN_EXE_grader"));
    cmd
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                l.strip_prefix("Uid:")
                    .map(|r| r.split_whitespace().nth(1) == Some("0"))
            })
        })
        .unwrap_or(false)
}
