//! `grader mutants` (`cargo xtask mutants`): how strong each exercise's hidden tests are.
//!
//! cargo-mutants changes the reference solution one small way at a time (a `+` into a `-`, a
//! function body into `Default::default()`, a `>` into `>=`…) and runs the hidden tests against
//! each change. A mutant the tests fail is *caught*; one they pass is *missed*: either the tests
//! cannot tell a wrong solution from a right one there, or the change is equivalent (it computes
//! the same thing). *Unviable* mutants do not compile. The given files (the staff's wiring) are
//! left alone: students do not write them.
//!
//! Writes `figures/exercises_mutants.csv` (one row per exercise), `exercises_mutants_missed.md`
//! (every missed mutant, to kill with a test or to explain) and a sidecar.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use student::catalog::{self, Exercise};

use crate::error::{GradeError, io_err};
use crate::workspace;

/// One exercise's result: a row of the CSV.
#[derive(Debug, Serialize, Deserialize)]
pub struct Row {
    pub exercise: String,
    pub mutants: u32,
    pub caught: u32,
    pub missed: u32,
    pub unviable: u32,
    pub timeouts: u32,
    /// Caught (timeouts count as caught: the test did not pass) over viable mutants, in %.
    pub caught_percent: f64,
    pub seconds: f64,
}

/// The parts of cargo-mutants' `outcomes.json` read here.
#[derive(Deserialize)]
struct Outcomes {
    total_mutants: u32,
    missed: u32,
    caught: u32,
    timeout: u32,
    unviable: u32,
    outcomes: Vec<serde_json::Value>,
}

pub fn run(root: &Path, only: Option<&str>, out: &Path) -> Result<(), GradeError> {
    let exercises = match only {
        Some(id) => vec![catalog::find(root, id)?],
        None => catalog::all(root)?,
    };
    let mut rows = Vec::new();
    let mut missed_md = String::from(
        "# Mutants the hidden tests miss\n\nEach line is a change to a reference solution that \
         every hidden test still passes: a gap in the tests, or a change that computes the same \
         thing (explained in the exercise's `grading/NOTES.md`).\n",
    );
    for ex in &exercises {
        let (row, missed) = one(root, ex)?;
        println!(
            "{}: {} mutants, {} caught, {} missed, {} unviable, {} timeouts ({:.0} % of viable caught)",
            row.exercise,
            row.mutants,
            row.caught,
            row.missed,
            row.unviable,
            row.timeouts,
            row.caught_percent
        );
        if !missed.is_empty() {
            missed_md.push_str(&format!("\n## `{}`\n\n", ex.id));
            for m in missed {
                missed_md.push_str(&format!("- `{m}`\n"));
            }
        }
        rows.push(row);
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in &rows {
        w.serialize(row).map_err(|e| GradeError::Format {
            what: "writing exercises_mutants.csv".into(),
            source: Box::new(e),
        })?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| GradeError::Setup(e.to_string()))?;
    let csv_path = out.join("exercises_mutants.csv");
    catalog::write(&csv_path, &String::from_utf8_lossy(&bytes))?;
    catalog::write(&out.join("exercises_mutants_missed.md"), &missed_md)?;
    let sidecar = serde_json::json!({
        "figure": "exercises_mutants",
        "description": "Mutants of each exercise's reference solution (cargo-mutants; given files left out) against its hidden tests",
        "program": "xtask/grader/src/mutants.rs",
        "command": match only { Some(id) => format!("cargo xtask mutants --exercise {id}"), None => "cargo xtask mutants".into() },
        "machine": machine(),
        "adapter": "GPU exercises on the machine's default adapter (lavapipe without a GPU)",
        "tool": tool_version(),
        "files": ["exercises_mutants.csv", "exercises_mutants_missed.md"],
        "commit": git(root, &["rev-parse", "--short=12", "HEAD"]),
        "dirty": !git(root, &["status", "--porcelain", "--untracked-files=no"]).is_empty(),
        "date": git(root, &["log", "-1", "--format=%cI"]),
        "load_average": fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().next().unwrap_or_default(),
    });
    catalog::write(
        &out.join("exercises_mutants.json"),
        &serde_json::to_string_pretty(&sidecar).unwrap_or_default(),
    )?;
    println!("wrote {}", csv_path.display());
    Ok(())
}

/// Checks the exercise (which leaves its solution workspace), then mutates that workspace's
/// solution in place and runs the hidden tests against each mutant.
fn one(root: &Path, ex: &Exercise) -> Result<(Row, Vec<String>), GradeError> {
    crate::check::run(root, Some(&ex.id))?;
    let ws = crate::check::solution_workspace(root, ex);
    let output = root.join("target/mutants").join(ex.slug());
    let _ = fs::remove_dir_all(&output);
    fs::create_dir_all(&output).map_err(|e| io_err(&output, e))?;
    let crate_dir = format!("ex/{}", ex.slug());
    let mut cmd = Command::new(workspace::cargo());
    cmd.args([
        "mutants",
        "--in-place",
        "--no-shuffle",
        "--test-tool",
        "nextest",
    ])
    .args(["--package", &ex.package()])
    .args(["--timeout", &(4 * ex.timeout_s()).to_string()])
    .arg("--output")
    .arg(&output);
    for given in ex.given_in_src() {
        cmd.args(["-e", &format!("{crate_dir}/src/{}", given.display())]);
    }
    // Only the hidden tests judge a mutant (the public ones are the student's).
    cmd.args(["--", "--test", "hidden"])
        .env("CARGO_TARGET_DIR", workspace::shared_target(root))
        .current_dir(&ws);
    let start = Instant::now();
    let status = cmd.status().map_err(|e| GradeError::Sandbox {
        what: "running cargo mutants (install it: `cargo install cargo-mutants --locked`)".into(),
        source: e,
    })?;
    let seconds = start.elapsed().as_secs_f64();
    // cargo-mutants exits 4 when the hidden tests fail on the unmutated solution: nothing was
    // measured, which must not read as "every mutant caught".
    if status.code() == Some(4) {
        return Err(GradeError::Setup(format!(
            "{}: the hidden tests fail on the unmutated reference solution (see {}); fix that first",
            ex.id,
            output.join("mutants.out/debug.log").display()
        )));
    }
    let outcomes_path: PathBuf = output.join("mutants.out/outcomes.json");
    let text = fs::read_to_string(&outcomes_path).map_err(|e| {
        GradeError::Setup(format!(
            "cargo mutants ({status}) wrote no {}: {e}",
            outcomes_path.display()
        ))
    })?;
    let o: Outcomes = serde_json::from_str(&text).map_err(|e| GradeError::Format {
        what: format!("reading {}", outcomes_path.display()),
        source: Box::new(e),
    })?;
    let viable = o.caught + o.missed + o.timeout;
    let row = Row {
        exercise: ex.id.clone(),
        mutants: o.total_mutants,
        caught: o.caught,
        missed: o.missed,
        unviable: o.unviable,
        timeouts: o.timeout,
        caught_percent: if viable == 0 {
            100.0
        } else {
            100.0 * f64::from(o.caught + o.timeout) / f64::from(viable)
        },
        seconds,
    };
    let missed = o
        .outcomes
        .iter()
        .filter(|v| v["summary"] == "MissedMutant")
        .filter_map(|v| v["scenario"]["Mutant"]["name"].as_str().map(str::to_owned))
        .collect();
    Ok((row, missed))
}

fn git(root: &Path, args: &[&str]) -> String {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn tool_version() -> String {
    Command::new(workspace::cargo())
        .args(["mutants", "--version"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// Cores, memory and kernel, as the other sidecars name a machine.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem_gib = fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches(" kB").parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0 / 1024.0);
    let kernel = fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!(
        "{cores} CPU cores, {mem_gib:.0} GiB, Linux {}",
        kernel.trim()
    )
}
