//! The grader's static gate: Clippy with a staff list of disallowed paths, as errors that
//! `#[allow]` cannot undo.
//!
//! The sandbox already stops most cheats at run time; this gate stops the ones it cannot: code
//! under test runs in the same process as the hidden test, so with files it could read its own
//! memory (`/proc/self/mem`) and find the test's token. Exercise libraries compute; they never
//! need files, processes, sockets, the environment, panic hooks or `exit`. Clippy resolves
//! paths, so renaming (`use std::process as p; p::exit(0)`) does not help.

use std::path::Path;

use super::catalog;
use super::grade::compiler_message;
use super::sandbox::Sandbox;

pub const CLIPPY_TOML: &str = r#"# Written by `cargo xtask grade`: what a submission's library may not use.
disallowed-methods = [
    { path = "std::process::exit", reason = "a test ends by returning, not by exiting" },
    { path = "std::process::abort", reason = "a test ends by returning, not by aborting" },
    { path = "std::panic::set_hook", reason = "panic hooks belong to the test harness" },
    { path = "std::panic::take_hook", reason = "panic hooks belong to the test harness" },
    { path = "std::env::var", reason = "exercises do not read the environment" },
    { path = "std::env::var_os", reason = "exercises do not read the environment" },
    { path = "std::env::vars", reason = "exercises do not read the environment" },
    { path = "std::env::vars_os", reason = "exercises do not read the environment" },
    { path = "std::env::args", reason = "exercises do not read the command line" },
    { path = "std::env::args_os", reason = "exercises do not read the command line" },
    { path = "std::env::current_exe", reason = "exercises do not read files" },
    { path = "std::fs::read", reason = "exercises do not read files" },
    { path = "std::fs::read_to_string", reason = "exercises do not read files" },
    { path = "std::fs::read_dir", reason = "exercises do not read files" },
    { path = "std::fs::read_link", reason = "exercises do not read files" },
    { path = "std::fs::metadata", reason = "exercises do not read files" },
    { path = "std::fs::symlink_metadata", reason = "exercises do not read files" },
    { path = "std::fs::write", reason = "exercises do not write files" },
    { path = "std::fs::copy", reason = "exercises do not write files" },
    { path = "std::fs::rename", reason = "exercises do not write files" },
    { path = "std::fs::create_dir", reason = "exercises do not write files" },
    { path = "std::fs::create_dir_all", reason = "exercises do not write files" },
    { path = "std::fs::remove_file", reason = "exercises do not write files" },
    { path = "std::fs::remove_dir_all", reason = "exercises do not write files" },
    { path = "std::fs::hard_link", reason = "exercises do not write files" },
    { path = "std::os::unix::fs::symlink", reason = "exercises do not write files" },
]
disallowed-types = [
    { path = "std::fs::File", reason = "exercises do not open files" },
    { path = "std::fs::OpenOptions", reason = "exercises do not open files" },
    { path = "std::process::Command", reason = "exercises do not start processes" },
    { path = "std::process::Child", reason = "exercises do not start processes" },
    { path = "std::net::TcpStream", reason = "exercises do not use the network" },
    { path = "std::net::TcpListener", reason = "exercises do not use the network" },
    { path = "std::net::UdpSocket", reason = "exercises do not use the network" },
    { path = "std::os::unix::net::UnixStream", reason = "exercises do not use sockets" },
    { path = "std::os::unix::net::UnixListener", reason = "exercises do not use sockets" },
    { path = "std::os::unix::net::UnixDatagram", reason = "exercises do not use sockets" },
]
"#;

/// `Some(message for the student)` when the submission uses something disallowed.
pub fn check(
    sb: &Sandbox,
    ws: &Path,
    package: &str,
    crate_dir: &Path,
) -> Result<Option<String>, String> {
    let conf = ws.join("clippy");
    catalog::write(&conf.join("clippy.toml"), CLIPPY_TOML)?;
    let mut gated = Sandbox {
        extra_env: sb.extra_env.clone(),
        ..sb.clone_paths()
    };
    gated
        .extra_env
        .push(format!("CLIPPY_CONF_DIR={}", conf.display()));
    let out = gated.cargo(
        ws,
        &[
            "clippy",
            "--locked",
            "--offline",
            "--profile",
            "test",
            "-p",
            package,
            "--lib",
            "--",
            "-A",
            "warnings",
            "-F",
            "clippy::disallowed_methods",
            "-F",
            "clippy::disallowed_types",
        ],
        900,
        false,
    )?;
    if out.status.success() {
        return Ok(None);
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let message = compiler_message(&stderr, crate_dir);
    if stderr.contains("disallowed") {
        Ok(Some(message.replacen(
            "Your code did not compile:",
            "Your code uses something exercises may not use (files, processes, network, \
             environment, panic hooks or exit):",
            1,
        )))
    } else {
        Ok(Some(message))
    }
}
