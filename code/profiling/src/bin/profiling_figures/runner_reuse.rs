//! `profiling_runner_reuse`: the CPU graph runner allocating its buffers every run (`run`)
//! against the one that keeps them (`run_reusing`), in one run of this program: wall time,
//! allocations and minor page faults per run (the workload counts them), and instructions per
//! run where a counter exists (`perf stat`, else callgrind).

use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};
use bench_harness::{BarChart, Drawn, Figure, Found, Sidecar, Stats};
use serde::{Deserialize, Serialize};

use crate::args::{Args, round_to};
use crate::overheads::callgrind_instructions;

/// (name in the CSV, the workload's flags after `--runs N`).
const RUNNERS: [(&str, &[&str]); 2] = [
    ("run (allocates every run)", &["--warmup", "1"]),
    ("run_reusing (one workspace)", &["--warmup", "1", "--reuse"]),
];

#[derive(Serialize, Deserialize)]
struct Row {
    runner: String,
    runs: usize,
    rounds: usize,
    ms_per_run_median: f64,
    ms_per_run_min: f64,
    ms_per_run_max: f64,
    allocations_per_run: f64,
    minor_faults_per_run: f64,
    /// A count, or `not measurable` where the tool or its counter is missing.
    instructions_per_run_perf: String,
    instructions_per_run_callgrind: String,
}

/// Milliseconds per run of each runner, min–max as whiskers.
fn chart(rows: &[Row]) -> String {
    let (runs, rounds) = rows.first().map_or((0, 0), |r| (r.runs, r.rounds));
    BarChart {
        title: "CPU graph runner: fresh buffers every run, or kept".into(),
        subtitle: format!(
            "{runs} runs of a 128×128, depth-16 graph, median of {rounds} processes (bars: min–max)"
        ),
        y_label: "ms per run".into(),
        log_y: false,
        bars: rows
            .iter()
            .map(|r| {
                let label = r.runner.split(" (").next().unwrap_or(&r.runner);
                (
                    label.into(),
                    r.ms_per_run_median,
                    Some((r.ms_per_run_min, r.ms_per_run_max)),
                )
            })
            .collect(),
    }
    .to_svg()
}

/// `--redraw`: the chart from the table.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    Ok(Drawn::chart(found, chart(&found.rows()?)))
}

/// One workload process: its `key=value` report.
fn workload(path: &Path, runs: usize, flags: &[&str]) -> anyhow::Result<Vec<(String, String)>> {
    let out = Command::new(path)
        .args(["--runs", &runs.to_string()])
        .args(flags)
        .output()
        .with_context(|| format!("cannot start {}", path.display()))?;
    if !out.status.success() {
        bail!(
            "{} failed: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect())
}

fn field(report: &[(String, String)], key: &str) -> anyhow::Result<f64> {
    report
        .iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.parse().ok())
        .with_context(|| format!("the workload printed no number for {key}"))
}

/// Instructions of one workload process counted by `perf stat` (None where the counter is not
/// supported, as on most VMs) or by callgrind (None where valgrind is missing).
fn instructions(tool: &str, path: &Path, runs: usize, flags: &[&str]) -> Option<f64> {
    let scratch = std::env::temp_dir().join(format!("runner_reuse_{tool}_{}", std::process::id()));
    let out = scratch.to_string_lossy().into_owned();
    let mut cmd = match tool {
        "perf" => Command::new("perf"),
        _ => Command::new("valgrind"),
    };
    match tool {
        "perf" => cmd.args(["stat", "-x", ",", "-e", "instructions:u", "-o", &out, "--"]),
        _ => cmd.args([
            "-q",
            "--tool=callgrind",
            &format!("--callgrind-out-file={out}"),
        ]),
    };
    let ok = cmd
        .arg(path)
        .args(["--runs", &runs.to_string()])
        .args(flags);
    let ok = ok
        .stdout(std::process::Stdio::null())
        .status()
        .ok()?
        .success();
    let count = if !ok {
        None
    } else if tool == "perf" {
        let text = std::fs::read_to_string(&scratch).ok()?;
        perf_stat_count(&text, "instructions")
    } else {
        callgrind_instructions(&scratch).ok().map(|n| n as f64)
    };
    std::fs::remove_file(&scratch).ok();
    count
}

/// The count of the first event whose name starts with `event` in `perf stat -x ,` output (one
/// CSV record per event: count, unit, event name, …; `#` lines are comments). `None` when the
/// event is missing or was `<not supported>`.
fn perf_stat_count(text: &str, event: &str) -> Option<f64> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes())
        .records()
        .filter_map(Result::ok)
        .find(|r| r.get(2).is_some_and(|name| name.starts_with(event)))?
        .get(0)?
        .parse()
        .ok()
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let path = &args.workload;
    if !path.exists() {
        bail!(
            "{} does not exist: build it with `cargo build --release -p profiling_lab --bin profiling_workload`, or pass --workload",
            path.display()
        );
    }
    let (runs, rounds) = if args.figures.quick { (5, 1) } else { (200, 7) };
    // Rounds alternate the two runners, so a drift of the machine touches both alike.
    let mut reports = vec![Vec::new(); RUNNERS.len()];
    for _ in 0..rounds {
        for (i, (_, flags)) in RUNNERS.iter().enumerate() {
            reports[i].push(workload(path, runs, flags)?);
        }
    }
    let mut rows = Vec::new();
    for ((name, flags), reports) in RUNNERS.iter().zip(&reports) {
        let per_run = |key: &str| -> anyhow::Result<Vec<f64>> {
            reports
                .iter()
                .map(|r| Ok(field(r, key)? / runs as f64))
                .collect()
        };
        let ms: Vec<f64> = per_run("seconds")?.iter().map(|s| s * 1e3).collect();
        let ms_stats = Stats::from_seconds(&ms).context("no timings")?;
        let median = |v: Vec<f64>| Stats::from_seconds(&v).map_or(f64::NAN, |s| s.median);
        let allocations = median(per_run("allocations")?);
        let faults = median(per_run("minor_faults")?);
        // Per run: the difference between two run counts, so start-up cancels out.
        let (few, many) = if args.figures.quick { (1, 2) } else { (2, 12) };
        let count = |tool: &str| -> String {
            match (
                instructions(tool, path, many, flags),
                instructions(tool, path, few, flags),
            ) {
                (Some(m), Some(f)) => format!("{:.0}", (m - f) / (many - few) as f64),
                _ => "not measurable".into(),
            }
        };
        let (perf, callgrind) = (count("perf"), count("callgrind"));
        eprintln!(
            "{name:30} {:.3} ms/run  {allocations} allocations  {faults} faults  perf {perf}  callgrind {callgrind}",
            ms_stats.median
        );
        let ms = |v: f64| round_to(v, 4);
        rows.push(Row {
            runner: (*name).into(),
            runs,
            rounds,
            ms_per_run_median: ms(ms_stats.median),
            ms_per_run_min: ms(ms_stats.min),
            ms_per_run_max: ms(ms_stats.max),
            allocations_per_run: round_to(allocations, 1),
            minor_faults_per_run: round_to(faults, 1),
            instructions_per_run_perf: perf,
            instructions_per_run_callgrind: callgrind,
        });
    }
    let name = format!("profiling_runner_reuse{}", args.tag);
    let mut sidecar = Sidecar::new(
        &name,
        "The CPU graph runner with fresh buffers every run against one workspace kept across \
         runs: wall time, allocations and minor page faults per run (counted by the workload), \
         instructions per run (perf stat where supported, callgrind where installed).",
    );
    sidecar.notes.push(format!(
        "each process: {} --runs {runs} --warmup 1 [--reuse]; rounds alternate the runners; \
         instructions: (count at {} runs − count at {} runs) / difference, to cancel start-up",
        path.display(),
        if args.figures.quick { 2 } else { 12 },
        if args.figures.quick { 1 } else { 2 },
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows))
        .write()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perf_stat_counts_are_read_from_its_csv() {
        let text = "# started on Sun Nov 29 12:00:00 2026\n\n\
                    1234567,,instructions:u,2000000,100.00,,\n";
        assert_eq!(perf_stat_count(text, "instructions"), Some(1_234_567.0));
        let unsupported = "<not supported>,,instructions:u,0,100.00,,\n";
        assert_eq!(perf_stat_count(unsupported, "instructions"), None);
        assert_eq!(perf_stat_count("", "instructions"), None);
    }
}
