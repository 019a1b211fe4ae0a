//! The book's GPU puzzles in headless Chromium, part of `cargo xtask browser-test` (and so of
//! `cargo xtask test`): `xtask/browser/puzzle_test.mjs` types every reference solution and every
//! wrong solution of `code/gpu_puzzles/browser_checks.json` into its puzzle's editor, presses Run
//! and requires a pass or the expected failure. Puzzles need no WebAssembly: they run in a book
//! built without the demos too.
//!
//! With `--figure`, the guards puzzle solved and failed become `figures/gpu_puzzle_solved.png`
//! and `figures/gpu_puzzle_failed.png` with the sidecar `figures/gpu_puzzle_screenshots.json`.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::util::{output, root};

const FIGURE: &str = "gpu_puzzle_screenshots";
/// What the screenshots depend on: a change elsewhere in the tree does not make them dirty.
const INPUTS: [&str; 6] = [
    "code/gpu_puzzles",
    "book/theme",
    "xtask/editor",
    "book/m0_introduction/gpu_puzzles",
    "xtask/browser/puzzle_test.mjs",
    "xtask/browser/book_pages.mjs",
];

pub fn run(driver: &Path, html: &Path, browser: &Path, figure: bool) -> anyhow::Result<()> {
    let shots = if figure {
        root().join("figures")
    } else {
        root().join("target/browser-test")
    };
    fs::create_dir_all(&shots)?;
    eprintln!("\n==> the book's GPU puzzles in headless Chromium");
    let out = Command::new("node")
        .arg(driver.join("puzzle_test.mjs"))
        .arg(html)
        .arg(root().join("code/gpu_puzzles/browser_checks.json"))
        .arg(&shots)
        .arg(browser)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run `node`: install Node.js (https://nodejs.org)")?;
    if !out.status.success() {
        bail!("the puzzle browser test failed (its messages are above)");
    }
    let report: Value =
        serde_json::from_slice(&out.stdout).context("the puzzle driver printed no JSON report")?;
    let runs = report["runs"].as_array().map_or(0, Vec::len);
    for size in report["sizes"].as_array().into_iter().flatten() {
        eprintln!(
            "    {:<52} {:>8.1} KiB raw {:>7.1} KiB gzip",
            size["file"].as_str().unwrap_or("?"),
            size["bytes"].as_f64().unwrap_or(0.0) / 1024.0,
            size["gzip"].as_f64().unwrap_or(0.0) / 1024.0
        );
    }
    eprintln!(
        "    {} puzzles, {runs} runs (every reference passes, every wrong solution fails as expected) in {:.1} s on {} ({})",
        report["puzzles"],
        report["seconds"].as_f64().unwrap_or(0.0),
        report["browser"].as_str().unwrap_or("?"),
        report["adapter"].as_str().unwrap_or("?")
    );
    if figure {
        for (from, to) in [
            ("puzzle_solved.png", "gpu_puzzle_solved.png"),
            ("puzzle_failed.png", "gpu_puzzle_failed.png"),
        ] {
            fs::rename(shots.join(from), shots.join(to))
                .with_context(|| format!("moving the screenshot {from}"))?;
        }
        write_sidecar(&report)?;
    }
    Ok(())
}

fn write_sidecar(report: &Value) -> anyhow::Result<()> {
    let git = |args: &[&str]| output(Command::new("git").args(args).current_dir(root()));
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(INPUTS);
    let dirty = git(&status).is_some_and(|s| !s.is_empty());
    let sidecar = json!({
        "figure": FIGURE,
        "kind": "screenshot",
        "description": "the guards puzzle in headless Chromium: solved (reference solution) and failed (an off-by-one guard)",
        "files": ["gpu_puzzle_solved.png", "gpu_puzzle_failed.png"],
        "program": "xtask/browser/puzzle_test.mjs",
        "browser": report["browser"],
        "machine": output(Command::new("uname").args(["-srm"])).unwrap_or_default(),
        "adapter": report["adapter"],
        "commit": if dirty { format!("{commit}-dirty") } else { commit },
        "dirty": dirty,
        "dirty_checked_paths": INPUTS,
        "test_seconds": report["seconds"],
        "sizes": report["sizes"],
        "command": "cargo xtask book && cargo xtask browser-test --figure",
        "date": output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])).unwrap_or_default(),
    });
    let path = root().join("figures").join(format!("{FIGURE}.json"));
    fs::write(&path, serde_json::to_string_pretty(&sidecar)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    if dirty {
        eprintln!("note: the puzzles' files have uncommitted changes: the sidecar says so");
    }
    Ok(())
}
