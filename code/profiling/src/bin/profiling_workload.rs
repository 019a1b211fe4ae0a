//! The workload every profiler in module 4 is pointed at: the CPU graph runner on a seeded
//! random graph, `--runs` times. Prints the wall time, so that a tool's overhead is the ratio of
//! its run to a bare one.
//!
//! ```text
//! cargo build --profile profiling -p profiling_lab --bin profiling_workload
//! target/profiling/profiling_workload --runs 20
//! ```

use std::time::Instant;

use clap::Parser;
use profiling_lab::graph_frames::Workload;

#[derive(Parser)]
struct Args {
    /// How many times the graph runs.
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Rows and columns of every tensor.
    #[arg(long, default_value_t = 128)]
    size: usize,
    /// Operators in the graph.
    #[arg(long, default_value_t = 16)]
    depth: usize,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let work = Workload::new(1, args.size, args.depth)?;
    let start = Instant::now();
    let mut checksum = 0.0f32;
    for _ in 0..args.runs {
        let out = work.run_cpu()?;
        checksum += out[0].data()[0];
    }
    println!(
        "runs={} size={} depth={} seconds={:.6} checksum={checksum}",
        args.runs,
        args.size,
        args.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
