//! The git-ignored folder where xtask installs the pinned tools it builds itself (mdbook,
//! mdbook-katex, wasm-bindgen), and the version of one installed there. A leaf module: `book` and
//! `demos` both use it, and neither needs the other for it.

use std::path::PathBuf;
use std::process::Command;

use crate::util::{output, root};

/// Where `cargo xtask book` installs the pinned mdbook tools: `.tools/` (git-ignored), or
/// `$COURSE_TOOLS_DIR` (CI keeps them there between runs of fresh clones).
pub fn tools_root() -> PathBuf {
    std::env::var_os("COURSE_TOOLS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".tools"))
}

pub fn tools_bin() -> PathBuf {
    tools_root().join("bin")
}

/// The installed version of a tool in the local tools folder, if any.
pub fn installed_version(tool: &str) -> Option<String> {
    let out = output(Command::new(tools_bin().join(tool)).arg("--version"))?;
    out.split_whitespace()
        .last()
        .map(|v| v.trim_start_matches('v').to_owned())
}
