//! Shared by xtask's test files (each test binary uses its own part).
#![allow(dead_code)]

use std::process::Output;

/// A finished command's stdout and stderr, as one text to search.
pub fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
