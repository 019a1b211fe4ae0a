//! The grader's sandbox: namespaces, limits and an unprivileged user for the student's code.
//!
//! Every cargo command of a grading runs as
//! `env -i … timeout -k 5 T unshare --net --pid --fork --kill-child --mount-proc bash sandbox.sh …`:
//! no network, a fresh environment, and when cargo exits every process it left behind dies with
//! the PID namespace. Inside, `sandbox.sh` hides the staff's exercise folders (hidden tests and
//! solutions) under empty mounts and gives tests a small private home. Each test binary is then
//! started through `runner.sh` (Cargo's target runner): resource limits, uid 65534, no
//! privileges, and at most 1 MiB of output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::catalog;

/// Runs before the command, as root inside the namespaces.
const SANDBOX_SH: &str = r#"#!/bin/bash
# Written by `cargo xtask grade`. Arguments: HOME_DIR HIDE... -- COMMAND...
set -eu
home="$1"
shift
while [ "$1" != "--" ]; do
    if [ -d "$1" ]; then
        mount -t tmpfs -o size=4k,mode=000 grade-hidden "$1"
    fi
    shift
done
shift
mount -t tmpfs -o size=256m,mode=0700,uid=65534,gid=65534 grade-home "$home"
exec "$@"
"#;

/// Starts one test binary: limits, then uid 65534 with no capabilities, output capped.
fn runner_sh(home: &Path, address_space: &str) -> String {
    format!(
        r#"#!/bin/bash
# Written by `cargo xtask grade`: Cargo's target runner for the hidden tests.
set -o pipefail
prlimit --nproc=512 --as={address_space} --fsize=100000000 --core=0 --nofile=1024 -- \
    setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all -- \
    env HOME={home} TMPDIR={home} XDG_CACHE_HOME={home}/.cache "$@" 2>&1 | head -c 1048576
"#,
        home = home.display()
    )
}

/// Everything a sandboxed cargo needs to know.
pub struct Sandbox {
    pub dir: PathBuf,
    pub home: PathBuf,
    pub hide: Vec<PathBuf>,
    pub target_dir: PathBuf,
    pub runner: PathBuf,
    /// More `KEY=value` pairs for every command (e.g. the static gate's `CLIPPY_CONF_DIR`).
    pub extra_env: Vec<String>,
}

impl Sandbox {
    /// Writes the scripts into `dir` and creates the home mount point.
    pub fn new(
        dir: &Path,
        hide: Vec<PathBuf>,
        target_dir: PathBuf,
        gpu: bool,
    ) -> Result<Self, String> {
        let home = dir.join("home");
        std::fs::create_dir_all(&home).map_err(|e| format!("{}: {e}", home.display()))?;
        catalog::write(&dir.join("sandbox.sh"), SANDBOX_SH)?;
        let runner = dir.join("runner.sh");
        // lavapipe and LLVM reserve much more address space than they touch.
        let address_space = if gpu { "34359738368" } else { "4294967296" };
        catalog::write(&runner, &runner_sh(&home, address_space))?;
        set_mode(&runner, 0o755)?;
        Ok(Self {
            dir: dir.to_path_buf(),
            home,
            hide,
            target_dir,
            runner,
            extra_env: Vec::new(),
        })
    }

    /// The same sandbox, with no extra environment.
    pub fn clone_paths(&self) -> Self {
        Self {
            dir: self.dir.clone(),
            home: self.home.clone(),
            hide: self.hide.clone(),
            target_dir: self.target_dir.clone(),
            runner: self.runner.clone(),
            extra_env: Vec::new(),
        }
    }

    /// Runs `cargo ARGS` in `cwd`, sandboxed, killed after `limit_s` seconds.
    pub fn cargo(
        &self,
        cwd: &Path,
        args: &[&str],
        limit_s: u32,
        with_runner: bool,
    ) -> Result<Output, String> {
        let mut cmd = Command::new("env");
        cmd.arg("-i");
        for (key, value) in base_env() {
            cmd.arg(format!("{key}={value}"));
        }
        cmd.arg(format!("CARGO_TARGET_DIR={}", self.target_dir.display()));
        cmd.args(&self.extra_env);
        cmd.args([
            "CARGO_INCREMENTAL=0",
            "CARGO_TERM_COLOR=never",
            "NEXTEST_HIDE_PROGRESS_BAR=1",
        ]);
        if with_runner {
            cmd.arg(format!("{}={}", runner_var()?, self.runner.display()));
        }
        cmd.args(["timeout", "-k", "5", &limit_s.to_string()]);
        cmd.args([
            "unshare",
            "--net",
            "--pid",
            "--fork",
            "--kill-child",
            "--mount-proc",
            "bash",
        ]);
        cmd.arg(self.dir.join("sandbox.sh"));
        cmd.arg(&self.home);
        cmd.args(&self.hide);
        cmd.args(["--", "cargo"]);
        cmd.args(args);
        cmd.current_dir(cwd);
        cmd.output()
            .map_err(|e| format!("starting the sandbox (env, timeout, unshare): {e}"))
    }
}

/// The variables cargo and rustup need, from the grader's own environment.
fn base_env() -> Vec<(String, String)> {
    let get = |k: &str| std::env::var(k).ok();
    let home = get("HOME").unwrap_or_else(|| "/root".into());
    let mut env = vec![
        (
            "PATH".to_string(),
            get("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        ),
        ("HOME".to_string(), home.clone()),
        (
            "CARGO_HOME".to_string(),
            get("CARGO_HOME").unwrap_or_else(|| format!("{home}/.cargo")),
        ),
        (
            "RUSTUP_HOME".to_string(),
            get("RUSTUP_HOME").unwrap_or_else(|| format!("{home}/.rustup")),
        ),
        ("LANG".to_string(), "C.UTF-8".to_string()),
    ];
    if let Some(toolchain) = get("RUSTUP_TOOLCHAIN") {
        env.push(("RUSTUP_TOOLCHAIN".to_string(), toolchain));
    }
    env
}

/// `CARGO_TARGET_<TRIPLE>_RUNNER` for the host.
fn runner_var() -> Result<String, String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("running rustc -vV: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let host = text
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .ok_or("rustc -vV printed no host triple")?;
    Ok(format!(
        "CARGO_TARGET_{}_RUNNER",
        host.to_uppercase().replace(['-', '.'], "_")
    ))
}

pub fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("chmod {}: {e}", path.display()))
}

/// The grader needs root: namespaces, mounts and switching to uid 65534.
pub fn require_root() -> Result<(), String> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|_| "the grader runs on Linux only (it needs /proc, namespaces and setpriv)")?;
    let uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("?");
    if uid != "0" {
        return Err(
            "the grader needs root for its sandbox (namespaces, mounts, an unprivileged test user): \
             run it with sudo, e.g. `sudo -E env PATH=$PATH cargo xtask grade …`"
                .into(),
        );
    }
    Ok(())
}

/// A fresh random token: 32 hex digits from the kernel's generator.
pub fn token() -> Result<String, String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("reading /dev/urandom: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
