//! The workload every profiler in module 4 is pointed at: the CPU graph runner on a seeded
//! random graph, `--runs` times. Prints the wall time, so that a tool's overhead is the ratio of
//! its run to a bare one, and the allocations and minor page faults of the timed runs.
//!
//! ```text
//! cargo build --profile profiling -p profiling_lab --bin profiling_workload
//! target/profiling/profiling_workload --runs 20
//! target/profiling/profiling_workload --runs 20 --warmup 1 --reuse
//! ```

use std::time::Instant;

use bench_harness::counting_alloc::{EveryThreadCountingAllocator, allocations_in_process};
use clap::Parser;
use computational_graphs::graph::runner_cpu::Workspace;
use profiling_lab::graph_frames::Workload;

/// The system allocator, counting the blocks every thread takes (one relaxed add per call,
/// too cheap to show in a profile).
#[global_allocator]
static ALLOC: EveryThreadCountingAllocator = EveryThreadCountingAllocator;

#[derive(Parser)]
struct Args {
    /// How many times the graph runs (timed).
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Runs before the timed ones (they give a reusing runner its buffers).
    #[arg(long, default_value_t = 0)]
    warmup: usize,
    /// Rows and columns of every tensor.
    #[arg(long, default_value_t = 128)]
    size: usize,
    /// Operators in the graph.
    #[arg(long, default_value_t = 16)]
    depth: usize,
    /// Run with `run_reusing` and one workspace, instead of `run`.
    #[arg(long)]
    reuse: bool,
}

/// Minor page faults of this process so far (the `minflt` field of /proc/self/stat, the count
/// getrusage reports as `ru_minflt`); `None` where there is no /proc.
fn minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after its ')' are plain.
    let after_name = stat.rsplit_once(')')?.1;
    after_name.split_whitespace().nth(7)?.parse().ok()
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let work = Workload::new(1, args.size, args.depth)?;
    let mut workspace = Workspace::new(&work.graph);
    let mut checksum = 0.0f32;
    let mut run_once = |checksum: &mut f32| -> anyhow::Result<()> {
        if args.reuse {
            work.run_cpu_reusing(&mut workspace)?;
            *checksum += workspace.outputs().next().map_or(0.0, |t| t.data()[0]);
        } else {
            let out = work.run_cpu()?;
            *checksum += out[0].data()[0];
        }
        Ok(())
    };
    for _ in 0..args.warmup {
        run_once(&mut checksum)?;
    }
    let faults_before = minor_faults();
    let allocations_before = allocations_in_process();
    let start = Instant::now();
    for _ in 0..args.runs {
        run_once(&mut checksum)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let allocations = allocations_in_process() - allocations_before;
    let faults = match (faults_before, minor_faults()) {
        (Some(before), Some(after)) => (after - before).to_string(),
        _ => "unknown".into(),
    };
    println!(
        "runs={} size={} depth={} reuse={} seconds={seconds:.6} allocations={allocations} \
         minor_faults={faults} checksum={checksum}",
        args.runs, args.size, args.depth, args.reuse
    );
    Ok(())
}
