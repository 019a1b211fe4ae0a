//! The GPU puzzles' code editor: CodeMirror 6 and the course's WGSL mode (`xtask/editor/`),
//! bundled by esbuild into `book/puzzle-editor/editor.js` (git-ignored), which mdBook copies
//! into the built book. Versions come from `xtask/editor/package-lock.json` (npm ci), so nothing
//! is fetched when the book is read.
//!
//! Without npm a local `cargo xtask book` still builds: the puzzles fall back to a plain editor
//! and one line says so. In CI (`CI=true`) that is an error: the published book gets CodeMirror.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use anyhow::bail;

use crate::demos::in_ci;
use crate::util::{root, run_step};

pub fn out_dir() -> PathBuf {
    root().join("book/puzzle-editor")
}

/// Bundles the editor into `book/puzzle-editor/`, or (outside CI) explains why it was left out.
pub fn build() -> anyhow::Result<()> {
    match try_build() {
        Ok(()) => Ok(()),
        Err(e) if !in_ci() => {
            let _ = fs::remove_dir_all(out_dir());
            eprintln!(
                "note: the puzzles' CodeMirror editor was left out ({e:#}); the pages use a plain editor"
            );
            Ok(())
        }
        Err(e) => Err(e.context("CI builds the book with the puzzles' CodeMirror editor")),
    }
}

fn try_build() -> anyhow::Result<()> {
    let dir = root().join("xtask/editor");
    let esbuild = dir.join("node_modules/.bin/esbuild");
    if !esbuild.is_file() {
        // --ignore-scripts: esbuild's binary comes as an optional package; no install script runs.
        run_step(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--ignore-scripts"])
                .current_dir(&dir),
            "installing the puzzles' editor (CodeMirror 6 and esbuild, pinned in xtask/editor/package-lock.json)",
            "Check your network connection; they come from the npm registry.",
        )?;
    }
    if !esbuild.is_file() {
        bail!("npm ci left no esbuild in {}", esbuild.display());
    }
    let out = out_dir().join("editor.js");
    run_step(
        Command::new(&esbuild)
            .args([
                "editor.js",
                "--bundle",
                "--minify",
                "--format=esm",
                "--log-level=warning",
            ])
            .arg(format!("--outfile={}", out.display()))
            .current_dir(&dir),
        "bundling the puzzles' editor (esbuild)",
        "esbuild's message above names the problem.",
    )?;
    eprintln!(
        "    puzzle editor: {} KiB",
        fs::metadata(&out).map_or(0, |m| m.len()) / 1024
    );
    Ok(())
}
