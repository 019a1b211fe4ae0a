//! `profiling_overheads`: the same workload bare, sampled by perf, counted by callgrind, and
//! under massif; plus callgrind's instruction count per graph run (deterministic, so it can be
//! measured on a busy machine). Massif's report is the `massif` part's figure.

use std::path::Path;
use std::process::Command;
use std::process::Stdio;
use std::time::Instant;

use anyhow::{Context, bail};
use bench_harness::{BarChart, Drawn, Figure, Found, Sidecar, Stats};
use serde::{Deserialize, Serialize};

use crate::args::{Args, round_to};
use crate::flamegraph::PERF_RECORD;

/// (name, tool and its flags before the program, in pieces; `{out}` is a scratch file). perf
/// samples exactly as the flame graph does, so this figure says what that figure cost.
const TOOLS: [(&str, &[&[&str]]); 4] = [
    ("bare", &[]),
    (
        "perf record (cpu-clock, 999 Hz, DWARF call graphs)",
        &[&["perf"], &PERF_RECORD, &["{out}", "--"]],
    ),
    (
        "valgrind massif (heap snapshots)",
        &[&["valgrind", "-q", "--tool=massif", "--massif-out-file={out}"]],
    ),
    (
        "valgrind callgrind (every instruction)",
        &[&[
            "valgrind",
            "-q",
            "--tool=callgrind",
            "--callgrind-out-file={out}",
        ]],
    ),
];

#[derive(Serialize, Deserialize)]
struct Row {
    tool: String,
    runs: usize,
    processes: usize,
    wall_s_median: f64,
    wall_s_min: f64,
    wall_s_max: f64,
    wall_slowdown: f64,
    own_s_median: f64,
    own_s_min: f64,
    own_s_max: f64,
    own_slowdown: f64,
}

/// `profiling_instructions`: a table without a chart.
#[derive(Serialize)]
struct CountRow {
    /// 1 or 2 graph runs, or `per run` (the difference).
    runs: String,
    process: u32,
    instructions: u64,
}

/// The slowdown of the workload's own timed loop under each tool, on a log axis.
fn chart(rows: &[Row]) -> String {
    let runs = rows.first().map_or(0, |r| r.runs);
    BarChart {
        title: "The same workload under each tool".into(),
        subtitle: format!(
            "CPU graph runner, {runs} runs of a 128×128, depth-16 graph: the workload's own timed loop"
        ),
        y_label: "slowdown (× bare)".into(),
        log_y: true,
        bars: rows
            .iter()
            .map(|r| {
                let name = r.tool.split(" (").next().unwrap_or(&r.tool);
                (name.into(), r.own_slowdown, None)
            })
            .collect(),
    }
    .to_svg()
}

/// `--redraw`: the overheads chart from its table; the instruction counts have no chart.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    if found.name == "profiling_instructions" {
        return Ok(Drawn::Kept("a table without a chart".into()));
    }
    Ok(Drawn::chart(found, chart(&found.rows()?)))
}

fn command(tool: &[&[&str]], workload: &Path, runs: usize, out: &Path) -> Command {
    let args: Vec<String> = tool
        .concat()
        .iter()
        .map(|a| a.replace("{out}", &out.to_string_lossy()))
        .chain([
            workload.to_string_lossy().into_owned(),
            "--runs".into(),
            runs.to_string(),
        ])
        .collect();
    let mut cmd = Command::new(&args[0]);
    cmd.args(&args[1..]);
    cmd
}

/// One process: its wall time, and the seconds the workload reports for its own timed loop
/// (`seconds=`). Their difference is what the tool costs outside the measured code: starting up,
/// loading symbols, writing its output.
fn timed(mut cmd: Command) -> anyhow::Result<(f64, f64)> {
    let start = Instant::now();
    let out = cmd
        .stdout(Stdio::piped())
        .output()
        .with_context(|| format!("cannot start {cmd:?}"))?;
    let wall = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("{cmd:?} failed with {}", out.status);
    }
    let report = String::from_utf8_lossy(&out.stdout);
    let own = report
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("seconds="))
        .and_then(|v| v.parse().ok())
        .context("the workload printed no seconds= field")?;
    Ok((wall, own))
}

/// Total instructions (`summary:` line) of a callgrind output file.
pub(crate) fn callgrind_instructions(path: &Path) -> anyhow::Result<u64> {
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .find_map(|l| l.strip_prefix("summary:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .with_context(|| format!("no summary line in {}", path.display()))
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let workload = &args.workload;
    if !workload.exists() {
        bail!(
            "{} does not exist: build it with `cargo build --release -p profiling_lab --bin \
             profiling_workload`, or pass --workload",
            workload.display()
        );
    }
    let (runs, samples) = if args.figures.quick { (2, 1) } else { (100, 5) };
    let scratch = std::env::temp_dir().join(format!("profiling_overheads_{}", std::process::id()));
    let mut rows = Vec::new();
    let mut bare: Option<(f64, f64)> = None;
    for (name, tool) in TOOLS {
        let mut walls = Vec::new();
        let mut owns = Vec::new();
        let mut failed = None;
        for _ in 0..samples {
            match timed(command(tool, workload, runs, &scratch)) {
                Ok((wall, own)) => {
                    walls.push(wall);
                    owns.push(own);
                }
                Err(err) => {
                    failed = Some(err);
                    break;
                }
            }
        }
        let (Some(wall), Some(own), None) = (
            Stats::from_seconds(&walls),
            Stats::from_seconds(&owns),
            failed.as_ref(),
        ) else {
            eprintln!(
                "skipping {name}: {:#}",
                failed.unwrap_or_else(|| anyhow::anyhow!("no sample"))
            );
            continue;
        };
        let (bare_wall, bare_own) = *bare.get_or_insert((wall.median, own.median));
        eprintln!(
            "{name:45} wall {:8.3} s ×{:.1}, own loop {:8.3} s ×{:.1}",
            wall.median,
            wall.median / bare_wall,
            own.median,
            own.median / bare_own
        );
        rows.push(Row {
            tool: name.into(),
            runs,
            processes: samples,
            wall_s_median: round_to(wall.median, 4),
            wall_s_min: round_to(wall.min, 4),
            wall_s_max: round_to(wall.max, 4),
            wall_slowdown: round_to(wall.median / bare_wall, 2),
            own_s_median: round_to(own.median, 4),
            own_s_min: round_to(own.min, 4),
            own_s_max: round_to(own.max, 4),
            own_slowdown: round_to(own.median / bare_own, 2),
        });
    }
    let mut sidecar = Sidecar::new(
        "profiling_overheads",
        "The workload bare and under perf, massif and callgrind: each process's wall time, and the \
         seconds the workload measured around its own timed runs (without the tool's start-up \
         and write-out); median, fastest and slowest of the processes.",
    );
    sidecar
        .notes
        .push(format!("workload: {} --runs {runs}", workload.display()));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows))
        .write()?;

    // Instructions per graph run: the difference between 2 runs and 1 run, so that start-up
    // (loading, building the graph) cancels out.
    let callgrind = TOOLS[3].1;
    // Each count is taken twice, to show that it repeats.
    let mut counts = Vec::new();
    let mut totals = Vec::new();
    for runs in [1, 2] {
        for process in [1, 2] {
            timed(command(callgrind, workload, runs, &scratch))?;
            let total = callgrind_instructions(&scratch)?;
            counts.push(CountRow {
                runs: runs.to_string(),
                process,
                instructions: total,
            });
            if process == 1 {
                totals.push(total);
            }
        }
    }
    counts.push(CountRow {
        runs: "per run".into(),
        process: 1,
        instructions: totals[1] - totals[0],
    });
    let mut counted = Sidecar::new(
        "profiling_instructions",
        "Instructions executed (callgrind) by the workload with 1 and 2 graph runs, two processes \
         each; the difference between the runs is one run's count.",
    );
    // A table with no chart: the sidecar names its one file.
    counted.files.push("profiling_instructions.csv".into());
    Figure::new(counted).rows(&counts)?.write()?;

    std::fs::remove_file(&scratch).ok();
    Ok(())
}
