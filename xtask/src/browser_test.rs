//! `cargo xtask browser-test [--figure]`: the book's WebGPU demos in a real browser. Opens the
//! built book in headless Chromium (SwiftShader's WebGPU without a GPU), presses every demo box's
//! run button and fails on a wrong result, a box that ends in an error, a missing file, a
//! JavaScript error, or a box in the book that the driver does not test. The driver is
//! `xtask/browser/demo_test.mjs` (puppeteer-core, pinned in its package-lock.json).
//! First it runs the GPU puzzles (`puzzle_browser_test`), which need no WebAssembly.
//!
//! With `--figure` the screenshot of the first demo box becomes `figures/book_demo_vector_add.png`
//! with its sidecar; run it from a clean commit, after `cargo xtask book`.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::util::{self, output, root, run_step};

const FIGURE: &str = "book_demo_vector_add";

#[derive(Debug, clap::Args)]
pub struct BrowserTestArgs {
    /// Also write the demo box's screenshot and sidecar to figures/ (from a clean commit).
    #[arg(long)]
    pub figure: bool,
}

fn chromium() -> anyhow::Result<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|p| util::on_path(p))
        .context("no Chromium on PATH: install it (Debian: sudo apt install chromium), or run `cargo xtask doctor --install`")
}

/// Is every dependency in the driver's package.json under its node_modules? A folder installed
/// before a dependency was added lacks it, and `npm ci` brings it in line with the lock file.
fn driver_installed(driver: &std::path::Path) -> anyhow::Result<bool> {
    let manifest = driver.join("package.json");
    let text =
        fs::read_to_string(&manifest).with_context(|| format!("reading {}", manifest.display()))?;
    let package: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not JSON: fix or restore it", manifest.display()))?;
    let dependencies = package["dependencies"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    Ok(dependencies
        .keys()
        .all(|name| driver.join("node_modules").join(name).is_dir()))
}

pub fn run(args: &BrowserTestArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let html = root().join("book/build/html");
    if !html.join("index.html").is_file() {
        bail!("the book is not built: run `cargo xtask book` first");
    }
    let browser = chromium()?;
    let driver = root().join("xtask/browser");
    if !driver_installed(&driver)? {
        run_step(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&driver),
            "installing the browser driver (puppeteer-core, csv-stringify; pinned in xtask/browser/package-lock.json)",
            "Check your network connection; it comes from the npm registry.",
        )?;
    }
    crate::puzzle_browser_test::run(&driver, &html, &which(browser), args.figure)?;
    if !html.join("demos/book_demos.js").is_file() {
        bail!(
            "the built book has no demos ({} is missing): run `cargo xtask book` with the wasm32 target installed first",
            html.join("demos/book_demos.js").display()
        );
    }
    let shot = if args.figure {
        root().join("figures").join(format!("{FIGURE}.png"))
    } else {
        let dir = root().join("target/browser-test");
        fs::create_dir_all(&dir)?;
        dir.join(format!("{FIGURE}.png"))
    };
    let browser_path = which(browser);
    eprintln!("\n==> the book's WebGPU demos in headless {browser}");
    let out = Command::new("node")
        .arg(driver.join("demo_test.mjs"))
        .arg(&html)
        .arg(&shot)
        .arg(&browser_path)
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run `node`: install Node.js (https://nodejs.org)")?;
    if !out.status.success() {
        bail!("the browser test failed (its messages are above)");
    }
    let report: Value =
        serde_json::from_slice(&out.stdout).context("the browser driver printed no JSON report")?;
    for demo in report["demos"].as_array().into_iter().flatten() {
        eprintln!(
            "    {} {} {} ({:.1} s): {}",
            demo["page"].as_str().unwrap_or("?"),
            demo["demo"].as_str().unwrap_or("?"),
            demo["choices"],
            demo["seconds"].as_f64().unwrap_or(0.0),
            demo["text"].as_str().unwrap_or("").replace('\n', " | ")
        );
        for row in demo["rows"].as_array().into_iter().flatten() {
            eprintln!(
                "        {}: {} | {}",
                row["key"].as_str().unwrap_or("?"),
                row["yours"].as_str().unwrap_or(""),
                row["check"].as_str().unwrap_or("")
            );
        }
    }
    eprintln!(
        "    without WebGPU, the first box ends in state \"{}\"",
        report["withoutWebGpu"].as_str().unwrap_or("?")
    );
    eprintln!(
        "    {} in {:.1} s; screenshot {}",
        report["browser"].as_str().unwrap_or("?"),
        started.elapsed().as_secs_f64(),
        shot.display()
    );
    if args.figure {
        write_sidecar(&report)?;
    }
    Ok(())
}

/// The program's full path on `PATH`, or its bare name (the error then names it when it fails
/// to start).
fn which(program: &str) -> PathBuf {
    which::which(program).unwrap_or_else(|_| PathBuf::from(program))
}

fn write_sidecar(report: &Value) -> anyhow::Result<()> {
    let git = |args: &[&str]| output(Command::new("git").args(args).current_dir(root()));
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    // The screenshot was just written over its committed version: only other changes make the
    // measurement dirty.
    let png = format!(":!figures/{FIGURE}.png");
    let json = format!(":!figures/{FIGURE}.json");
    let dirty = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        &png,
        &json,
    ])
    .is_some_and(|s| !s.is_empty());
    let demo = &report["demos"][0];
    let sidecar = json!({
        "figure": FIGURE,
        "kind": "screenshot",
        "description": "the \"Run it on your GPU\" box of the first GPU program chapter, after a run in headless Chromium",
        "files": [format!("{FIGURE}.png")],
        "program": "xtask/browser/demo_test.mjs",
        "browser": report["browser"],
        "machine": output(Command::new("uname").args(["-srm"])).unwrap_or_default(),
        "adapter": demo["adapter"],
        "result": demo["text"],
        "commit": if dirty { format!("{commit}-dirty") } else { commit },
        "dirty": dirty,
        "command": "cargo xtask book && cargo xtask browser-test --figure",
        "date": output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])).unwrap_or_default(),
    });
    let path = root().join("figures").join(format!("{FIGURE}.json"));
    fs::write(&path, serde_json::to_string_pretty(&sidecar)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    if dirty {
        eprintln!(
            "note: the tree has uncommitted changes: the sidecar says so; regenerate from a clean commit"
        );
    }
    Ok(())
}
