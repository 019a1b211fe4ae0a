//! `profiling_massif`: valgrind's massif on the workload, once with the runner that allocates
//! every run and once with the one that reuses its buffers. Keeps, for each, `ms_print`'s graph
//! of the heap over time and the allocation tree of the peak snapshot (the call sites that hold
//! the memory when it is highest), and a table of the peaks. Massif counts bytes and
//! instructions, not seconds, so the result does not depend on the machine's load.
//!
//! `profiling_heap_trim` beside it: page faults, allocations and time of the allocating runner
//! with glibc's default trim threshold and a raised one, and of the reusing runner.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use bench_harness::{Figure, Sidecar};
use serde::Serialize;

use crate::args::Args;

/// Graph runs per massif run: three teeth in the graph when every run allocates.
const RUNS: usize = 3;
/// Call-stack frames kept per allocation site, and the share (%) under which sites are merged:
/// enough to name the operator and its caller, short enough to read.
const DEPTH: &str = "--depth=4";
const THRESHOLD: &str = "--threshold=2.0";

/// (runner, the workload's flags after `--runs N`, file stem of its two text files).
const RUNNERS: [(&str, &[&str], &str); 2] = [
    ("run", &[], "profiling_massif"),
    (
        "run_reusing",
        &["--warmup", "1", "--reuse"],
        "profiling_massif_reusing",
    ),
];

#[derive(Serialize)]
struct Row {
    runner: String,
    runs: usize,
    /// Allocations in the timed runs, as the workload counted them.
    allocations: u64,
    peak_snapshot: u32,
    /// Instructions executed when the peak was taken (massif's time unit).
    peak_at_instructions: u64,
    peak_total_bytes: u64,
    peak_useful_bytes: u64,
    peak_extra_bytes: u64,
}

/// `ms_print`'s text for one massif run, with the workload's folder and the `(in FILE)` suffixes
/// cut (they name one machine's paths, not the program).
fn massif(workload: &Path, flags: &[&str], scratch: &Path) -> anyhow::Result<(String, u64)> {
    std::fs::create_dir_all(scratch)?;
    let out = Command::new("valgrind")
        .current_dir(scratch)
        .args(["-q", "--tool=massif", DEPTH, THRESHOLD])
        .arg("--massif-out-file=massif.out.%p")
        .arg(workload)
        .args(["--runs", &RUNS.to_string()])
        .args(flags)
        .output()
        .context("cannot start valgrind: install it (Debian: apt-get install valgrind)")?;
    if !out.status.success() {
        bail!("massif failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let report = String::from_utf8_lossy(&out.stdout);
    let allocations = report
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("allocations="))
        .and_then(|v| v.parse().ok())
        .context("the workload printed no allocations= count")?;
    let file = std::fs::read_dir(scratch)?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("massif.out."))
        .context("massif wrote no massif.out.<pid>")?;
    let name = file.file_name().unwrap_or_default().to_owned();
    let printed = Command::new("ms_print")
        .current_dir(scratch)
        .arg(THRESHOLD)
        .arg(&name)
        .output()
        .context("cannot start ms_print (it comes with valgrind)")?;
    std::fs::remove_file(&file).ok();
    let folder = workload.parent().map(|p| format!("{}/", p.display()));
    let text = String::from_utf8_lossy(&printed.stdout)
        .lines()
        .map(|line| {
            let line = line.split(" (in /").next().unwrap_or(line);
            let line = folder
                .as_deref()
                .map_or(line.to_owned(), |f| line.replace(f, ""));
            format!("{}\n", line.trim_end())
        })
        .collect();
    Ok((text, allocations))
}

fn number(cell: &str) -> anyhow::Result<u64> {
    cell.replace(',', "")
        .parse()
        .with_context(|| format!("`{cell}` is not a number in ms_print's table"))
}

/// The graph (header to the list of detailed snapshots), the peak snapshot's row and tree, and
/// the table row.
fn split(text: &str, runner: &str, allocations: u64) -> anyhow::Result<(String, String, Row)> {
    let lines: Vec<&str> = text.lines().collect();
    let listed = lines
        .iter()
        .position(|l| l.contains("Detailed snapshots:"))
        .context("ms_print printed no list of detailed snapshots")?;
    let graph: String = lines[..=listed].iter().map(|l| format!("{l}\n")).collect();
    let peak: u32 = lines[listed]
        .split(['[', ',', ']'])
        .find_map(|s| s.trim().strip_suffix(" (peak)"))
        .context("no snapshot is marked (peak)")?
        .parse()?;
    let at = lines
        .iter()
        .position(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            cells.len() == 6 && cells[0] == peak.to_string()
        })
        .context("the peak snapshot's row is missing")?;
    let cells: Vec<&str> = lines[at].split_whitespace().collect();
    let end = lines[at + 1..]
        .iter()
        .position(|l| l.starts_with("-----"))
        .map_or(lines.len(), |i| at + 1 + i);
    let header = lines[..at]
        .iter()
        .rev()
        .find(|l| l.trim_start().starts_with("n "))
        .context("no column header above the peak")?;
    let tree: String = std::iter::once(*header)
        .chain(lines[at..end].iter().copied())
        .map(|l| format!("{l}\n"))
        .collect();
    let row = Row {
        runner: runner.into(),
        runs: RUNS,
        allocations,
        peak_snapshot: peak,
        peak_at_instructions: number(cells[1])?,
        peak_total_bytes: number(cells[2])?,
        peak_useful_bytes: number(cells[3])?,
        peak_extra_bytes: number(cells[4])?,
    };
    Ok((graph, tree.trim_end().to_owned() + "\n", row))
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let workload: PathBuf = std::fs::canonicalize(&args.workload).with_context(|| {
        format!(
            "{} does not exist: build it with `cargo build --profile profiling -p profiling_lab \
             --bin profiling_workload`, or pass --workload",
            args.workload.display()
        )
    })?;
    let scratch = std::env::temp_dir().join(format!("profiling_massif_{}", std::process::id()));
    let mut sidecar = Sidecar::new(
        "profiling_massif",
        "valgrind massif on the workload: the heap over time (ms_print's graph) and the \
         allocation tree of the peak snapshot, for the runner that allocates every run and for \
         the one that reuses its buffers.",
    );
    sidecar.notes.push(format!(
        "valgrind --tool=massif {DEPTH} {THRESHOLD} profiling_workload --runs {RUNS} [flags]; \
         ms_print {THRESHOLD}; the workload's folder and ' (in FILE)' suffixes are cut"
    ));
    let mut rows = Vec::new();
    let mut texts = Vec::new();
    for (runner, flags, stem) in RUNNERS {
        let (text, allocations) = massif(&workload, flags, &scratch)?;
        let (graph, tree, row) = split(&text, runner, allocations)?;
        eprintln!(
            "{runner:12} peak {} B at snapshot {}, {allocations} allocations",
            row.peak_total_bytes, row.peak_snapshot
        );
        rows.push(row);
        texts.push((format!("{stem}.txt"), graph));
        texts.push((format!("{stem}_peak.txt"), tree));
    }
    std::fs::remove_dir_all(&scratch).ok();
    // The sidecar lists every file it describes, the table first.
    sidecar.files.push("profiling_massif.csv".into());
    let mut figure = Figure::new(sidecar).rows(&rows)?;
    for (name, text) in texts {
        figure = figure.extra(&name, text);
    }
    figure.write()?;
    trim(&workload, if args.figures.quick { 1 } else { 5 })
}

#[derive(Serialize)]
struct TrimRow {
    runner: String,
    /// glibc's `MALLOC_TRIM_THRESHOLD_` for the process; empty: glibc's default.
    malloc_trim_threshold: String,
    runs: usize,
    allocations: u64,
    minor_faults_median: f64,
    seconds_median: f64,
}

/// The page faults the flame graph found come from glibc giving the top of the heap back to the
/// kernel when a run frees its tensors, and taking it again on the next run. Raising glibc's
/// trim threshold keeps that memory in the process: the allocator-side fix, beside the runner
/// that reuses its buffers. Each configuration runs `samples` times; medians are kept.
fn trim(workload: &Path, samples: usize) -> anyhow::Result<()> {
    const RUNS: usize = 20;
    const THRESHOLD_BYTES: &str = "268435456";
    let configs: [(&str, Option<&str>, &[&str]); 3] = [
        ("run", None, &[]),
        ("run", Some(THRESHOLD_BYTES), &[]),
        ("run_reusing", None, &["--reuse"]),
    ];
    let mut rows = Vec::new();
    for (runner, threshold, flags) in configs {
        let (mut faults, mut seconds, mut allocations) = (Vec::new(), Vec::new(), 0);
        for _ in 0..samples {
            let mut cmd = Command::new(workload);
            cmd.args(["--runs", &RUNS.to_string(), "--warmup", "1"])
                .args(flags);
            match threshold {
                Some(bytes) => cmd.env("MALLOC_TRIM_THRESHOLD_", bytes),
                None => cmd.env_remove("MALLOC_TRIM_THRESHOLD_"),
            };
            let out = cmd.output().context("cannot start the workload")?;
            if !out.status.success() {
                bail!(
                    "the workload failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            let report = String::from_utf8_lossy(&out.stdout).into_owned();
            let field = |key: &str| -> anyhow::Result<f64> {
                report
                    .split_whitespace()
                    .find_map(|kv| kv.strip_prefix(key))
                    .and_then(|v| v.parse().ok())
                    .with_context(|| format!("the workload printed no {key} (faults need /proc)"))
            };
            faults.push(field("minor_faults=")?);
            seconds.push(field("seconds=")?);
            allocations = field("allocations=")? as u64;
        }
        rows.push(TrimRow {
            runner: runner.into(),
            malloc_trim_threshold: threshold.unwrap_or("").into(),
            runs: RUNS,
            allocations,
            minor_faults_median: median(&mut faults),
            seconds_median: median(&mut seconds),
        });
    }
    let mut sidecar = Sidecar::new(
        "profiling_heap_trim",
        "Minor page faults, allocations and wall time of 20 workload runs after one warm-up run: \
         the allocating runner with glibc's default trim threshold and with it raised to 256 MiB, \
         and the runner that reuses its buffers.",
    );
    sidecar
        .notes
        .push(format!("medians of {samples} processes each"));
    sidecar.files.push("profiling_heap_trim.csv".into());
    Figure::new(sidecar).rows(&rows)?.write()?;
    Ok(())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRINTED: &str = "\
Command:            profiling_workload --runs 3
 Detailed snapshots: [2, 5 (peak), 9]

--------------------------------------------------------------------------------
  n        time(i)         total(B)   useful-heap(B) extra-heap(B)    stacks(B)
--------------------------------------------------------------------------------
  4          1,000              100               90            10            0
  5          2,000            1,024            1,000            24            0
97.66% (1,000B) (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
->97.66% (1,000B) 0x1: linear
|
--------------------------------------------------------------------------------
";

    #[test]
    fn the_peak_row_and_its_tree_are_found() {
        let (graph, tree, row) = split(PRINTED, "run", 7).unwrap();
        assert!(graph.ends_with("9]\n"));
        assert_eq!(row.peak_snapshot, 5);
        assert_eq!(row.peak_total_bytes, 1024);
        assert_eq!(row.peak_useful_bytes, 1000);
        assert_eq!(row.peak_at_instructions, 2000);
        assert!(tree.starts_with("  n "), "{tree}");
        assert!(tree.contains("0x1: linear"));
        assert!(!tree.contains("-----"));
    }
}
