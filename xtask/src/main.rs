//! `cargo xtask <command>`: the course's task runner. Thin on purpose: each command is a short
//! sequence of the tools a reader could run by hand, in the right order, with clear errors.

mod book;
mod doctor;
mod figures;
mod link_check;
#[cfg(test)]
mod pipeline_checks;
mod test;
mod util;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

  doctor              is my system ready? (toolchain, GPU adapter, book tools)
  book [--serve]      build the book (installing mdbook tools if missing), or serve it
  test                everything CI runs: fmt, clippy, tests, doctests, book, links, loom, exercises
  figures             regenerate every figure under figures/ (release builds; takes minutes)
  check-exercises     every stub fails, every reference solution passes
  release --out DIR   the student edition of the exercises
  grade ...           grade submissions (see `cargo xtask grade --help`)
  progress            your exercises and how many public tests pass
  hint ID             the next hint for an exercise
";

/// Runs `cargo run --quiet -p PACKAGE -- SUBCOMMAND ARGS…`: the grader and the student tool are
/// crates of their own (`xtask/grader`, `xtask/student`).
fn forward(package: &str, subcommand: &str, args: &[String]) -> Result<(), String> {
    let status = util::cargo()
        .args(["run", "--quiet", "-p", package, "--", subcommand])
        .args(args)
        .status()
        .map_err(|e| format!("starting `cargo run -p {package}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{package} {subcommand}` failed ({status})"))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let result = match command.as_str() {
        "doctor" => doctor::run(rest),
        "book" => book::run(rest),
        "test" => test::run(rest),
        "figures" => figures::run(rest),
        "check-exercises" => forward("grader", "check", rest),
        "release" | "grade" => forward("grader", command, rest),
        "progress" | "hint" => forward("student", command, rest),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // One clear message, no backtrace wall: these are the reader's errors, not bugs.
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
