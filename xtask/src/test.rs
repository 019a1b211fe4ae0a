//! `cargo xtask test`: everything CI runs, in the order that fails fastest, with the time each
//! step took. The same command on a laptop and in CI. A preflight runs first, before anything
//! compiles: what the run needs from the system is there, installed now, or named with the
//! command that installs it.

use std::time::Instant;

use anyhow::bail;

use crate::disk;
use crate::install::{self, Rights};
use crate::util::{cargo, forward, root, run_step};
use crate::{book, browser_test, figures, requirements, workspace};

/// nextest's filter for the tests that need root (CONTRIBUTING.md: named `privileged_…`).
pub const PRIVILEGED: &str = "test(/(^|::)privileged_/)";
/// The grader's tests that grade submissions: the grader refuses to grade as root, so as root
/// these are left out (and said so); CI runs them as an ordinary user.
pub const GRADING: &str = "package(grader) & binary(/^(grader_adversarial|grader_sandbox|grader_roster|grader_reference)$/)";

#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Run only the tests that need root (the grader's `privileged_…` sandbox checks), as root.
    #[arg(long)]
    pub privileged: bool,
    /// Stop with the install commands instead of installing what is missing.
    #[arg(long)]
    pub no_install: bool,
    /// Also verify every figure sidecar (`cargo xtask figures --check`).
    #[arg(long)]
    pub figures_check: bool,
}

pub fn run(args: &TestArgs) -> anyhow::Result<()> {
    let rights = Rights::of_this_machine();
    let started = Instant::now();
    eprintln!("==> preflight: system packages and tools (xtask/requirements.toml)");
    install::ensure(&requirements::all()?, rights, !args.no_install)?;
    eprintln!("    all present ({:.1} s)", started.elapsed().as_secs_f64());
    let target = disk::target_dir(&root());
    if let Some(warning) = disk::available_bytes(&target).and_then(|b| disk::warning(b, &target)) {
        eprintln!("{warning}");
    }
    if args.privileged {
        if !rights.root {
            bail!("the privileged tests need root: run `cargo xtask test --privileged` as root");
        }
        return privileged();
    }
    let mut timings: Vec<(&str, f64, bool)> = Vec::new();
    let outcome = steps(args, rights, &mut timings);
    eprintln!("\nstep                           seconds");
    for (name, secs, ok) in &timings {
        eprintln!("{name:<30} {secs:>7.1} {}", if *ok { "" } else { "FAILED" });
    }
    outcome?;
    eprintln!("\nall checks passed");
    Ok(())
}

/// One step of the run: what it does, as a closure that reports failure.
type Step = Box<dyn Fn() -> anyhow::Result<()>>;

fn steps(
    args: &TestArgs,
    rights: Rights,
    timings: &mut Vec<(&'static str, f64, bool)>,
) -> anyhow::Result<()> {
    let filter = if rights.root {
        eprintln!(
            "note: as root, the grader's tests that grade submissions are left out (the grader \
             refuses to grade as root); run `cargo xtask test` as an ordinary user for those"
        );
        format!("not ({GRADING})")
    } else {
        eprintln!(
            "note: not root, so the grader's tests named `privileged_…` are left out (its sandbox \
             needs root for them); run `cargo xtask test --privileged` as root for those"
        );
        format!("not {PRIVILEGED}")
    };
    let mut steps: Vec<(&'static str, Step)> = vec![
        (
            "format",
            Box::new(|| {
                run_step(
                    cargo().args(["fmt", "--all", "--", "--check"]),
                    "checking formatting",
                    "Run `cargo fmt --all`.",
                )
            }),
        ),
        (
            "clippy",
            Box::new(|| {
                run_step(
                    cargo().args([
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
            }),
        ),
        // The book comes before the tests: the pipeline tests and the book's doctests need it.
        ("book and link check", Box::new(book::build)),
        (
            "browser demos",
            Box::new(|| browser_test::run(&browser_test::BrowserTestArgs { figure: false })),
        ),
        // Before the workspace tests: it also warms target/exercises, which the grader's tests
        // build on.
        ("exercises", Box::new(|| forward("grader", "check", &[]))),
        (
            "tests (nextest)",
            Box::new(move || {
                nextest(
                    &["--workspace"],
                    &filter,
                    "workspace tests (GPU tests one at a time)",
                )
            }),
        ),
        (
            "doctests (crates and book)",
            Box::new(|| {
                run_step(
                    cargo().args(["test", "--doc", "--workspace"]),
                    "doctests of every crate, and every Rust block of the book",
                    "A book failure names the chapter under book/build/markdown/ and the line.",
                )
            }),
        ),
        ("loom models", Box::new(loom)),
        (
            "workflow lint",
            Box::new(|| {
                run_step(
                    std::process::Command::new("actionlint").current_dir(root()),
                    "actionlint on .github/workflows",
                    "Its messages above name the file and line.",
                )
            }),
        ),
    ];
    if args.figures_check {
        steps.push(("figures check", Box::new(figures::check_all)));
    }
    for (name, step) in steps {
        let start = Instant::now();
        let result = step();
        timings.push((name, start.elapsed().as_secs_f64(), result.is_ok()));
        result?;
    }
    Ok(())
}

/// The grader's tests named `privileged_…` (CONTRIBUTING.md: only the grader has such tests).
/// None is a pass, said in one line, not an empty test run.
fn privileged() -> anyhow::Result<()> {
    let listed = cargo()
        .args([
            "nextest",
            "list",
            "--package",
            "grader",
            "--message-format",
            "oneline",
        ])
        .args(["-E", PRIVILEGED])
        .output()?;
    if !listed.status.success() {
        bail!(
            "listing the privileged tests failed:\n{}",
            String::from_utf8_lossy(&listed.stderr)
        );
    }
    let count = String::from_utf8_lossy(&listed.stdout).lines().count();
    if count == 0 {
        eprintln!("no test needs root (none is named `privileged_…`): nothing to run as root");
        return Ok(());
    }
    nextest(&["--package", "grader"], PRIVILEGED, "tests that need root")
}

fn nextest(packages: &[&str], filter: &str, what: &str) -> anyhow::Result<()> {
    let mut cmd = cargo();
    cmd.args(["nextest", "run"]).args(packages).args([
        "--no-fail-fast",
        "--no-tests=warn",
        "-E",
        filter,
    ]);
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        cmd.args(["--profile", "ci"]);
    }
    run_step(&mut cmd, what, "The failing tests are listed above.")
}

/// Every package with a `loom` test target, in its own target dir: `--cfg loom` changes every
/// crate in the build, and keeping those artifacts apart keeps the normal build's cache intact.
fn loom() -> anyhow::Result<()> {
    for package in workspace::packages_with_test("loom")? {
        let mut cmd = cargo();
        cmd.args([
            "nextest",
            "run",
            "--release",
            "-p",
            &package,
            "--test",
            "loom",
        ])
        .args(["--no-fail-fast"])
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
