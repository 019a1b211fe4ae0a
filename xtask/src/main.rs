//! `cargo xtask <command>`: the course's task runner. Thin on purpose: each command is a short
//! sequence of the tools a reader could run by hand, in the right order, with clear errors.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xtask::{book, browser_test, doctor, figures, test, util};

#[derive(Parser)]
#[command(
    name = "xtask",
    bin_name = "cargo xtask",
    about = "The course's task runner"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Is this machine ready? Checks what `test` needs, names the GPU adapter.
    Doctor(doctor::DoctorArgs),
    /// Build the book (installing the pinned mdbook tools first), or serve it.
    Book(book::BookArgs),
    /// Everything CI runs: preflight, fmt, clippy, book, exercises, tests, doctests, loom, lint.
    Test(test::TestArgs),
    /// Run the book's WebGPU demos in headless Chromium (after `book`); `--figure` saves a screenshot.
    BrowserTest(browser_test::BrowserTestArgs),
    /// Run every figure program (flags pass through), or `--check` every sidecar.
    Figures(figures::FiguresArgs),
    /// Every stub fails and every solution passes (the grader's `check`).
    CheckExercises(Forwarded),
    /// The student edition of the exercises (the grader's `release`).
    Release(Forwarded),
    /// Grade submissions (the grader's `grade`).
    Grade(Forwarded),
    /// How many mutants of each reference solution the hidden tests catch (the grader's `mutants`).
    Mutants(Forwarded),
    /// Your exercises and how many public tests pass (the student tool).
    Progress(Forwarded),
    /// The next hint for an exercise (the student tool).
    Hint(Forwarded),
}

/// Arguments passed unchanged to the grader or the student tool (`--help` shows theirs).
#[derive(clap::Args)]
struct Forwarded {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Doctor(args) => doctor::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Test(args) => test::run(&args),
        Command::Figures(args) => figures::run(&args),
        Command::BrowserTest(args) => browser_test::run(&args),
        Command::CheckExercises(f) => util::forward("grader", "check", &f.args),
        Command::Release(f) => util::forward("grader", "release", &f.args),
        Command::Grade(f) => util::forward("grader", "grade", &f.args),
        Command::Mutants(f) => util::forward("grader", "mutants", &f.args),
        Command::Progress(f) => util::forward("student", "progress", &f.args),
        Command::Hint(f) => util::forward("student", "hint", &f.args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One clear message, no backtrace wall: these are the reader's errors, not bugs.
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
