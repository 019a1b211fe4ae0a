//! `profiling_flamegraph.svg`: perf samples of the workload folded by inferno into a flame graph.

use std::io::BufReader;
use std::process::Command;

use anyhow::{Context, bail};
use bench_harness::{Sidecar, figures_dir};
use inferno::collapse::Collapse;

use crate::Args;

// ANCHOR: flamegraph
/// How perf samples: a timer event (`cpu-clock` works on VMs too), 999 times a second, with call
/// stacks unwound from DWARF; the output file follows.
pub const PERF_RECORD: [&str; 9] = [
    "record",
    "-q",
    "-e",
    "cpu-clock",
    "-F",
    "999",
    "--call-graph",
    "dwarf",
    "-o",
];

pub fn run(args: &Args) -> anyhow::Result<()> {
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
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot start perf: install linux-perf (Debian) or linux-tools (Ubuntu)")?;
    if !status.success() {
        bail!("perf record failed ({status}); on a VM, -e cpu-clock is the event that works");
    }
    let script = Command::new("perf")
        .arg("script")
        .arg("-i")
        .arg(&data)
        .output()?;
    let mut folded = Vec::new();
    inferno::collapse::perf::Folder::default()
        .collapse(BufReader::new(&script.stdout[..]), &mut folded)?;
    let mut options = inferno::flamegraph::Options::default();
    options.title = "CPU graph runner (perf, cpu-clock, 999 Hz, DWARF call graphs)".into();
    let dir = figures_dir();
    std::fs::create_dir_all(&dir)?;
    let svg = std::fs::File::create(dir.join("profiling_flamegraph.svg"))?;
    inferno::flamegraph::from_reader(&mut options, &folded[..], svg)?;
    // ANCHOR_END: flamegraph
    let mut sidecar = Sidecar::new(
        "profiling_flamegraph",
        "A flame graph of the CPU graph runner: perf samples folded by inferno.",
    );
    sidecar.notes.push(format!(
        "perf record -e cpu-clock -F 999 --call-graph dwarf -- {} --runs {runs}; perf script | \
         inferno collapse-perf | inferno flamegraph (as library calls)",
        args.workload.display()
    ));
    sidecar.write(&dir.join("profiling_flamegraph.json"))?;
    std::fs::remove_file(&data).ok();
    Ok(())
}
