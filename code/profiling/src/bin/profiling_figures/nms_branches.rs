//! `profiling_nms_branches`: cachegrind's instruction and simulated branch-misprediction counts
//! per call of five NMS versions at 8000 boxes. Neither of the course's machines lets a program
//! read the CPU's own branch-miss counter, so the count comes from valgrind's simulator: a
//! simple model of a predictor, not the real CPU's, but the same model for every version.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};
use bench_harness::{Figure, Sidecar};
use serde::Serialize;

use crate::args::Args;

/// `nms_calls`'s version names, as the NMS figure's CSV names them.
const VERSIONS: [(&str, &str); 5] = [
    ("scan", "scan"),
    ("sorted", "sorted"),
    ("sorted-copied", "sorted_copied"),
    ("branchless", "branchless"),
    ("branchless-scalar", "branchless_scalar"),
];
const TOOL: [&str; 4] = [
    "--tool=cachegrind",
    "--cache-sim=no",
    "--branch-sim=yes",
    "--cachegrind-out-file=/dev/null",
];

#[derive(Serialize)]
struct Row {
    boxes: usize,
    version: &'static str,
    instructions_per_call: u64,
    branches_per_call: u64,
    mispredicts_per_call: u64,
}

/// Totals of one cachegrind run: instructions, branches, mispredicts.
#[derive(Clone, Copy)]
struct Counts([u64; 3]);

/// The first number after `label` on one of cachegrind's summary lines (`==pid== I   refs:  1,234`).
fn count_after(report: &str, label: &str) -> anyhow::Result<u64> {
    let line = report
        .lines()
        .find_map(|l| l.split_once(label).map(|(_, rest)| rest))
        .with_context(|| format!("cachegrind printed no `{label}` line:\n{report}"))?;
    let number = line.split_whitespace().next().unwrap_or_default();
    number
        .replace(',', "")
        .parse()
        .with_context(|| format!("`{number}` after `{label}` is not a number"))
}

fn cachegrind(
    calls_bin: &Path,
    version: &str,
    boxes: usize,
    calls: usize,
) -> anyhow::Result<Counts> {
    let out = Command::new("valgrind")
        .args(TOOL)
        .arg(calls_bin)
        .args(["--version", version, "--boxes", &boxes.to_string()])
        .args(["--calls", &calls.to_string()])
        .output()
        .context("cannot start valgrind: install it (Debian: apt-get install valgrind)")?;
    let report = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        bail!("cachegrind failed on {version}:\n{report}");
    }
    Ok(Counts([
        count_after(&report, "I   refs:")?,
        count_after(&report, "Branches:")?,
        count_after(&report, "Mispredicts:")?,
    ]))
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let calls_bin = std::fs::canonicalize(&args.nms_calls).with_context(|| {
        format!(
            "{} does not exist: build it with `cargo build --release -p profiling_lab --bin \
             nms_calls`, or pass --nms-calls",
            args.nms_calls.display()
        )
    })?;
    let boxes = if args.figures.quick { 1000 } else { 8000 };
    // Two runs that differ only in their number of calls: the difference, halved, is one call
    // without the start-up and the box generation.
    let (few, many) = (2, 4);
    let mut rows = Vec::new();
    for (flag, name) in VERSIONS {
        let a = cachegrind(&calls_bin, flag, boxes, few)?;
        let b = cachegrind(&calls_bin, flag, boxes, many)?;
        let per_call = |i: usize| (b.0[i] - a.0[i]) / (many - few) as u64;
        eprintln!(
            "{name:18} {} instructions, {} mispredicts per call",
            per_call(0),
            per_call(2)
        );
        rows.push(Row {
            boxes,
            version: name,
            instructions_per_call: per_call(0),
            branches_per_call: per_call(1),
            mispredicts_per_call: per_call(2),
        });
    }
    let mut sidecar = Sidecar::new(
        "profiling_nms_branches",
        "Five NMS versions at one box count under valgrind's cachegrind with its branch \
         simulator: instructions, conditional and indirect branches, and simulated mispredicts \
         per call. The simulator models a simple predictor, not the CPU's own.",
    );
    sidecar.notes.push(format!(
        "valgrind {} nms_calls --version V --boxes {boxes} --calls N, for N = {few} and {many}; \
         per call = (count at {many} − count at {few}) / {}",
        TOOL.join(" "),
        many - few
    ));
    // A table without a chart: the sidecar lists it, so that the check expects no SVG.
    sidecar.files.push("profiling_nms_branches.csv".into());
    Figure::new(sidecar).rows(&rows)?.write()?;
    Ok(())
}
