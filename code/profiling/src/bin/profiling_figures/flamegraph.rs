//! `profiling_flamegraph.svg`: perf samples of the workload folded by inferno into a flame graph
//! (and `profiling_flamegraph_reusing.svg`, the same with the buffer-reusing runner), each with a
//! CSV of the share of samples under the frames the sampling page reads.

use std::io::BufReader;
use std::process::Command;

use anyhow::{Context, bail};
use bench_harness::{Csv, Sidecar, figures_dir};
use inferno::collapse::Collapse;

use crate::args::Args;

// ANCHOR: flamegraph
/// How perf samples: a timer event (`cpu-clock` works on VMs too), 999 times a second, with call
/// stacks unwound from DWARF; the output file follows.
#[rustfmt::skip]
pub const PERF_RECORD: [&str; 9] = [
    "record", "-q", "-e", "cpu-clock", "-F", "999", "--call-graph", "dwarf", "-o",
];

pub fn run(args: &Args, workload_args: &[&str], name: &str) -> anyhow::Result<()> {
    let runs = if args.figures.quick { "3" } else { "100" };
    let data = std::env::temp_dir().join(format!("profiling_perf_{}.data", std::process::id()));
    let status = Command::new("perf")
        // DWARF unwinding works on any build with unwind tables; with frame pointers
        // (the `profiling` build), `-g` is cheaper per sample.
        .args(PERF_RECORD)
        .arg(&data)
        .arg("--")
        .arg(&args.workload)
        .args(["--runs", runs])
        .args(workload_args)
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot start perf: install linux-perf (Debian) or linux-tools (Ubuntu)")?;
    if !status.success() {
        bail!("perf record failed ({status}); on a VM, -e cpu-clock is the event that works");
    }
    let script = Command::new("perf")
        .args(["script", "-i"])
        .arg(&data)
        .output()?;
    let mut folded = Vec::new();
    inferno::collapse::perf::Folder::default()
        .collapse(BufReader::new(&script.stdout[..]), &mut folded)?;
    let mut options = inferno::flamegraph::Options::default();
    options.title = format!("CPU graph runner {workload_args:?} (perf, cpu-clock, 999 Hz)");
    options.count_name = "ns of CPU time".into();
    let dir = figures_dir();
    std::fs::create_dir_all(&dir)?;
    let svg = std::fs::File::create(dir.join(format!("{name}.svg")))?;
    inferno::flamegraph::from_reader(&mut options, &folded[..], svg)?;
    // ANCHOR_END: flamegraph
    shares(&folded)?.write(&dir.join(format!("{name}.csv")))?;
    let mut sidecar = Sidecar::new(
        name,
        "A flame graph of the CPU graph runner: perf samples folded by inferno; the CSV gives \
         the samples whose stack holds each frame the page reads.",
    );
    sidecar.notes.push(format!(
        "perf record -e cpu-clock -F 999 --call-graph dwarf -- {} --runs {runs} {}; perf \
         script | inferno collapse-perf | inferno flamegraph (as library calls); the SVG's \
         counts are ns of CPU time (each sample weighs its period)",
        args.workload.display(),
        workload_args.join(" ")
    ));
    sidecar.write(&dir.join(format!("{name}.json")))?;
    std::fs::remove_file(&data).ok();
    Ok(())
}

/// Frames the sampling page reads, as (label, text a frame's name contains).
const FRAMES: [(&str, &str); 8] = [
    ("linear (matrix products)", "ops::cpu::linear"),
    ("softmax", "softmax"),
    ("memcpy", "memcpy"),
    ("page faults", "asm_exc_page_fault"),
    ("malloc", "malloc"),
    ("free", "free"),
    ("brk", "brk"),
    ("run_node (allocating runner)", "runner_cpu::run_node"),
];

/// Samples (weighted by period, as folded) whose stack holds each frame, once per stack.
fn shares(folded: &[u8]) -> anyhow::Result<Csv> {
    let text = std::str::from_utf8(folded)?;
    let stacks: Vec<(&str, u64)> = text
        .lines()
        .filter_map(|l| {
            let (stack, count) = l.rsplit_once(' ')?;
            Some((stack, count.parse().ok()?))
        })
        .collect();
    let total: u64 = stacks.iter().map(|s| s.1).sum();
    let mut csv = Csv::new(&[
        "frame",
        "pattern",
        "weight",
        "total_weight",
        "share_percent",
    ]);
    let mut row = |label: &str, pattern: &str, weight: u64| {
        let share = 100.0 * weight as f64 / total.max(1) as f64;
        csv.row(&[
            label.into(),
            pattern.into(),
            weight.to_string(),
            total.to_string(),
            format!("{share:.2}"),
        ]);
    };
    row("all", "", total);
    for (label, pattern) in FRAMES {
        let weight = stacks
            .iter()
            .filter(|(stack, _)| stack.split(';').any(|f| f.contains(pattern)))
            .map(|s| s.1)
            .sum();
        row(label, pattern, weight);
    }
    Ok(csv)
}
