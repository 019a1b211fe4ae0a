//! `grader`: the teachers' command line (also reached as `cargo xtask check-exercises`,
//! `cargo xtask release` and `cargo xtask grade`).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "grader",
    about = "Check, release and grade the course's exercises"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every stub compiles and fails its tests; every reference solution passes them.
    Check {
        /// Only this exercise, e.g. `m1/buffer_reuse`.
        #[arg(long)]
        exercise: Option<String>,
    },
    /// Write the student edition (stubs, public tests, the student tool, Classroom workflow).
    Release {
        /// A new or empty folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Grade one submission (`--exercise ID --submission DIR`) or a roster (`--roster DIR`).
    Grade {
        /// The exercise id, e.g. `m1/buffer_reuse` (with `--roster`: only this exercise).
        #[arg(long, required_unless_present = "roster")]
        exercise: Option<String>,
        /// The submission's exercise folder (its `src/` is graded).
        #[arg(long, conflicts_with = "roster", required_unless_present = "roster")]
        submission: Option<PathBuf>,
        /// A folder with one folder per student, each a copy of the student edition.
        #[arg(long)]
        roster: Option<PathBuf>,
        /// Where the reports go.
        #[arg(long)]
        out: Option<PathBuf>,
        /// With `--roster`: grade only the K-th of every N students (name order), e.g. `2/8`.
        #[arg(long, requires = "roster")]
        shard: Option<grader::Shard>,
    },
    /// Compile every exercise's dependencies once, in the sandbox, so that gradings start warm.
    Warm {
        /// Only this exercise.
        #[arg(long)]
        exercise: Option<String>,
    },
    /// Write the teacher's grading workflow (for the teacher's private copy of the course).
    ClassroomWorkflow {
        /// The file to write, e.g. `.github/workflows/grade-class.yml`.
        #[arg(long)]
        out: PathBuf,
        /// Parallel grading jobs (shards of the roster).
        #[arg(long, default_value_t = 8)]
        shards: u32,
    },
    /// Measure the hidden tests: mutants of each reference solution (cargo-mutants) they catch.
    Mutants {
        /// Only this exercise.
        #[arg(long)]
        exercise: Option<String>,
        /// Where the CSV, the list of missed mutants and the sidecar go.
        #[arg(long, default_value = "figures")]
        out: PathBuf,
    },
    /// Join roster shards (their `--out` folders) into one gradebook and report folder.
    Merge {
        /// Where the merged gradebook goes.
        #[arg(long)]
        out: PathBuf,
        /// The shards' output folders.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
}

/// The grader's tests and staff debugging switch parts of a grading off through `GRADER_*`
/// variables (each on when set, whatever its value); they are read here, once, and handed down.
fn options_from_env() -> grader::GradeOptions {
    let set = |name: &str| std::env::var_os(name).is_some();
    grader::GradeOptions {
        skip_text_check: set("GRADER_SKIP_TEXT_CHECK"),
        no_gate: set("GRADER_NO_GATE"),
        leak_tokens: set("GRADER_TEST_ONLY_LEAK_TOKENS"),
        debug: set("GRADER_DEBUG"),
    }
}

fn main() -> anyhow::Result<()> {
    let root = grader::repo_root();
    let options = options_from_env();
    let result = match Cli::parse().command {
        Command::Check { exercise } => grader::check_exercises(&root, exercise.as_deref()),
        Command::Release { out } => grader::release(&root, &out),
        Command::Grade {
            exercise,
            submission,
            roster: Some(dir),
            out,
            shard,
        } => {
            let _ = submission;
            grader::roster(&root, &dir, exercise.as_deref(), out, shard, options)
        }
        Command::Grade {
            exercise,
            submission,
            roster: None,
            out,
            shard: _,
        } => match (exercise, submission) {
            (Some(id), Some(sub)) => grader::grade(&root, &id, &sub, out, options),
            _ => Err(grader::GradeError::Setup(
                "grade needs --exercise and --submission (or --roster)".into(),
            )),
        },
        Command::ClassroomWorkflow { out, shards } => grader::classroom_workflow(&out, shards),
        Command::Warm { exercise } => grader::warm(&root, exercise.as_deref(), options),
        Command::Merge { out, shards } => grader::merge(&shards, &out),
        Command::Mutants { exercise, out } => {
            grader::mutants(&root, exercise.as_deref(), &root.join(out))
        }
    };
    Ok(result?)
}
