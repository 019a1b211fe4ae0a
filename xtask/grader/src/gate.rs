//! The grader's static gate: Clippy compiles the library of the real build, with a staff list of
//! disallowed paths as lints that are forbidden (so `#[allow]` cannot undo them).
//!
//! Clippy is not a second, separate build: `clippy-driver` is set as the workspace's rustc
//! wrapper for the grading build itself, so the gate sees exactly the cfgs, features and code that
//! are compiled and tested (`#[cfg(not(clippy))]` hides nothing: clippy's cfg is on in the build
//! too). The sandbox stops what touches files; this gate stops what the sandbox cannot: code under
//! test runs in the same process as the hidden test, so with files it could read its own binary
//! and find the test's token. Exercise libraries compute; they never need files, processes,
//! sockets, the environment, panic hooks or `exit`. Clippy resolves paths, so renaming (`use
//! std::process as p; p::exit(0)`) does not help.

use std::path::Path;

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
    { path = "std::fs::set_permissions", reason = "exercises do not change files" },
    { path = "std::fs::canonicalize", reason = "exercises do not read files" },
    { path = "std::fs::exists", reason = "exercises do not read files" },
    { path = "std::fs::remove_dir", reason = "exercises do not write files" },
    { path = "std::fs::soft_link", reason = "exercises do not write files" },
    { path = "std::os::unix::fs::chown", reason = "exercises do not change files" },
    { path = "std::os::unix::fs::lchown", reason = "exercises do not change files" },
    { path = "std::os::unix::fs::chroot", reason = "exercises do not change the file system" },
    { path = "std::os::unix::fs::mkfifo", reason = "exercises do not write files" },
    { path = "std::path::Path::read_dir", reason = "exercises do not read files" },
    { path = "std::path::Path::metadata", reason = "exercises do not read files" },
    { path = "std::path::Path::symlink_metadata", reason = "exercises do not read files" },
    { path = "std::path::Path::read_link", reason = "exercises do not read files" },
    { path = "std::path::Path::canonicalize", reason = "exercises do not read files" },
    { path = "std::path::Path::try_exists", reason = "exercises do not read files" },
    { path = "std::path::Path::exists", reason = "exercises do not read files" },
    { path = "std::path::Path::is_file", reason = "exercises do not read files" },
    { path = "std::path::Path::is_dir", reason = "exercises do not read files" },
    { path = "std::path::Path::is_symlink", reason = "exercises do not read files" },
    { path = "std::env::current_dir", reason = "exercises do not read files" },
    { path = "std::env::set_current_dir", reason = "exercises do not change folders" },
    { path = "std::env::set_var", reason = "exercises do not change the environment" },
    { path = "std::env::remove_var", reason = "exercises do not change the environment" },
    { path = "std::env::temp_dir", reason = "exercises do not write files" },
    { path = "std::env::home_dir", reason = "exercises do not read files" },
    { path = "std::io::stdin", reason = "exercises do not read input" },
    { path = "std::process::id", reason = "exercises do not inspect processes" },
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
    { path = "std::fs::DirBuilder", reason = "exercises do not write files" },
    { path = "std::fs::ReadDir", reason = "exercises do not read files" },
    { path = "std::fs::DirEntry", reason = "exercises do not read files" },
    { path = "std::process::Stdio", reason = "exercises do not start processes" },
]
"#;

/// The environment of every grading command: clippy-driver compiles the workspace's crates.
pub fn environment() -> Vec<(String, String)> {
    vec![
        (
            "RUSTC_WORKSPACE_WRAPPER".into(),
            "/grade/toolchain/bin/clippy-driver".into(),
        ),
        ("CLIPPY_CONF_DIR".into(), "/grade/ws/clippy".into()),
    ]
}

/// The status and the student's message for a library build that failed.
pub fn explain(stderr: &str) -> (&'static str, String) {
    let message = compiler_message(stderr, Path::new("/grade/ws/exercise"));
    if stderr.contains("disallowed") {
        let message = message.replacen(
            "Your code did not compile:",
            "Your code uses something exercises may not use (files, processes, network, \
             environment, panic hooks or exit):",
            1,
        );
        ("refused", message)
    } else {
        ("did not build", message)
    }
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
