//! `profiling_overheads`: the same workload bare, sampled by perf, counted by callgrind, and
//! under massif; plus callgrind's instruction count per graph run (deterministic, so it can be
//! measured on a busy machine). Massif's report is the `massif` part's figure.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use bench_harness::{BarChart, Csv, Sidecar, figures_dir, measure_durations};

use crate::Args;
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
    cmd.args(&args[1..]).stdout(std::process::Stdio::null());
    cmd
}

fn timed(mut cmd: Command) -> anyhow::Result<Duration> {
    let start = Instant::now();
    let status = cmd
        .status()
        .with_context(|| format!("cannot start {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed with {status}");
    }
    Ok(start.elapsed())
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
    let (runs, samples) = if args.figures.quick { (2, 1) } else { (100, 3) };
    let scratch = std::env::temp_dir().join(format!("profiling_overheads_{}", std::process::id()));
    let mut csv = Csv::new(&["tool", "runs", "s_median", "s_p10", "s_p90", "slowdown"]);
    let mut chart = BarChart {
        title: "The same workload under each tool".into(),
        subtitle: format!("CPU graph runner, {runs} runs of a 128×128, depth-16 graph"),
        y_label: "slowdown (× bare)".into(),
        log_y: true,
        bars: Vec::new(),
    };
    let mut bare = None;
    for (name, tool) in TOOLS {
        let mut failed = None;
        let stats = measure_durations(0, samples, || {
            timed(command(tool, workload, runs, &scratch)).unwrap_or_else(|err| {
                failed = Some(err);
                Duration::ZERO
            })
        });
        if let Some(err) = failed {
            eprintln!("skipping {name}: {err:#}");
            continue;
        }
        let base = *bare.get_or_insert(stats.median);
        eprintln!(
            "{name:45} {:8.3} s  ×{:.1}",
            stats.median,
            stats.median / base
        );
        csv.row(&[
            name.into(),
            runs.to_string(),
            format!("{:.4}", stats.median),
            format!("{:.4}", stats.p10),
            format!("{:.4}", stats.p90),
            format!("{:.2}", stats.median / base),
        ]);
        chart.bars.push((
            name.split(" (").next().unwrap_or(name).into(),
            stats.median / base,
            None,
        ));
    }
    let dir = figures_dir();
    csv.write(&dir.join("profiling_overheads.csv"))?;
    chart.write(&dir.join("profiling_overheads.svg"))?;
    let mut sidecar = Sidecar::new(
        "profiling_overheads",
        "Wall time of one workload run bare and under perf, massif and callgrind.",
    );
    sidecar
        .notes
        .push(format!("workload: {} --runs {runs}", workload.display()));
    sidecar.write(&dir.join("profiling_overheads.json"))?;

    // Instructions per graph run: the difference between 2 runs and 1 run, so that start-up
    // (loading, building the graph) cancels out.
    let callgrind = TOOLS[3].1;
    let mut counts = Csv::new(&["runs", "instructions"]);
    let mut totals = Vec::new();
    for runs in [1, 2] {
        timed(command(callgrind, workload, runs, &scratch))?;
        let total = callgrind_instructions(&scratch)?;
        counts.row(&[runs.to_string(), total.to_string()]);
        totals.push(total);
    }
    counts.row(&["per run".into(), (totals[1] - totals[0]).to_string()]);
    counts.write(&dir.join("profiling_instructions.csv"))?;
    Sidecar::new(
        "profiling_instructions",
        "Instructions executed (callgrind) by the workload with 1 and 2 graph runs; their \
         difference is one run's count. Deterministic: the same binary gives the same count.",
    )
    .write(&dir.join("profiling_instructions.json"))?;

    std::fs::remove_file(&scratch).ok();
    Ok(())
}
