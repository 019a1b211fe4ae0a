//! `cargo xtask doctor`: is this machine ready for the course? Each check prints `ok`, `warn`
//! (optional piece missing) or `MISSING` (needed), with what to do. Exits non-zero while anything
//! needed is missing.

use std::process::Command;

use crate::book::{MDBOOK, MDBOOK_KATEX, installed_version};
use crate::util::{self, output};

enum Level {
    Ok,
    Warn,
    Missing,
}

struct Check {
    level: Level,
    what: String,
    fix: String,
}

pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask doctor".into());
    }
    let checks = [
        toolchain(),
        nextest(),
        gpu_adapter(),
        book_tool(MDBOOK),
        book_tool(MDBOOK_KATEX),
        npm(),
    ];
    let mut missing = 0;
    for check in &checks {
        let tag = match check.level {
            Level::Ok => "ok  ",
            Level::Warn => "warn",
            Level::Missing => {
                missing += 1;
                "MISSING"
            }
        };
        println!("{tag} {}", check.what);
        if !check.fix.is_empty() {
            for line in check.fix.lines() {
                println!("       {line}");
            }
        }
    }
    if missing > 0 {
        Err(format!(
            "{missing} needed piece(s) missing: see the lines marked MISSING above"
        ))
    } else {
        println!(
            "\nReady. Read the book with `cargo xtask book --serve`; run the tests with `cargo xtask test`."
        );
        Ok(())
    }
}

fn toolchain() -> Check {
    let version = output(Command::new("rustc").arg("--version")).unwrap_or_default();
    let pinned = std::fs::read_to_string(util::root().join("rust-toolchain.toml"))
        .ok()
        .and_then(|t| util::manifest_value(&t, "toolchain", "channel"))
        .unwrap_or_default();
    if !pinned.is_empty() && version.contains(&pinned) {
        Check {
            level: Level::Ok,
            what: format!("Rust toolchain: {version}"),
            fix: String::new(),
        }
    } else {
        Check {
            level: Level::Missing,
            what: format!("Rust toolchain {pinned} (found: {})", if version.is_empty() { "none" } else { &version }),
            fix: "Install rustup from https://rustup.rs; inside this repository it picks the pinned version.".into(),
        }
    }
}

fn nextest() -> Check {
    match output(util::cargo().args(["nextest", "--version"])) {
        Some(v) => Check {
            level: Level::Ok,
            what: format!("test runner: {}", v.lines().next().unwrap_or("")),
            fix: String::new(),
        },
        None => Check {
            level: Level::Missing,
            what: "test runner cargo-nextest".into(),
            fix: "Install it: cargo install --locked cargo-nextest".into(),
        },
    }
}

/// Builds and runs gpu_context's `gpu_report`, so xtask itself never has to compile wgpu.
fn gpu_adapter() -> Check {
    eprintln!(
        "(building the adapter probe: the first time this compiles wgpu, which takes a few minutes)"
    );
    let result = util::cargo()
        .args(["run", "--quiet", "-p", "gpu_context", "--bin", "gpu_report"])
        .output();
    let out = match result {
        Ok(out) => out,
        Err(e) => {
            return Check {
                level: Level::Missing,
                what: "GPU adapter (probe did not start)".into(),
                fix: e.to_string(),
            };
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| {
        stdout
            .lines()
            .find_map(|l| {
                l.strip_prefix(name)
                    .map(|v| v.trim_start_matches(':').trim().to_owned())
            })
            .unwrap_or_default()
    };
    if out.status.success() {
        let kind = field("type");
        let note = if kind == "Cpu" {
            " (a software adapter: correct but slow)"
        } else {
            ""
        };
        Check {
            level: Level::Ok,
            what: format!(
                "GPU adapter: {} — {}, {kind}{note}",
                field("adapter"),
                field("backend")
            ),
            fix: String::new(),
        }
    } else {
        Check {
            level: Level::Missing,
            what: "GPU adapter".into(),
            fix: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        }
    }
}

fn book_tool((tool, version): (&str, &str)) -> Check {
    match installed_version(tool) {
        Some(found) if found == version => Check {
            level: Level::Ok,
            what: format!("book tool: {tool} {found}"),
            fix: String::new(),
        },
        found => Check {
            level: Level::Warn,
            what: format!(
                "book tool {tool} {version} (found: {})",
                found.unwrap_or_else(|| "not installed".into())
            ),
            fix: "Only needed to build the book: `cargo xtask book` installs it into .tools/."
                .into(),
        },
    }
}

fn npm() -> Check {
    match output(Command::new("npm").arg("--version")) {
        Some(v) => Check {
            level: Level::Ok,
            what: format!("npm {v} (fetches KaTeX for the book)"),
            fix: String::new(),
        },
        None => Check {
            level: Level::Warn,
            what: "npm (fetches KaTeX's fonts for the book)".into(),
            fix: "Only needed to build the book: install Node.js and npm from https://nodejs.org."
                .into(),
        },
    }
}
