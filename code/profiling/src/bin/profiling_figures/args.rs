//! The program's command line and the parts `--only` can pick: what `main` parses and every part
//! reads (a file of its own, so that the parts need not reach back into `main`).

use clap::Parser;

pub const PARTS: [&str; 12] = [
    "span_cost",
    "trace",
    "timeline",
    "nms",
    "nms_branches",
    "yolo_frame",
    "overheads",
    "massif",
    "flamegraph",
    "runner_reuse",
    "training_gpu",
    "training_scopes",
];

#[derive(Parser)]
#[command(
    about = "Module 4's figures: span cost, a CPU+GPU trace and its timeline, NMS (time, and cachegrind's branch counts), a YOLO-shaped frame by stage, profiler overheads, massif's peak call sites, a flame graph, \
             the CPU runner with and without buffer reuse, the training step on CPU and GPU"
)]
pub struct Args {
    #[command(flatten)]
    pub figures: bench_harness::FigureArgs,
    /// The workload binary the profilers run (overheads, flamegraph): `cargo build --release -p
    /// profiling_lab --bin profiling_workload`, or the `profiling` build (line tables, and frame
    /// pointers through RUSTFLAGS), at target/profiling/profiling_workload.
    #[arg(long, default_value = "target/release/profiling_workload")]
    pub workload: std::path::PathBuf,
    /// The program cachegrind runs for the NMS branch counts (nms_branches): `cargo build
    /// --release -p profiling_lab --bin nms_calls`.
    #[arg(long, default_value = "target/release/nms_calls")]
    pub nms_calls: std::path::PathBuf,
    /// Appended to the runner_reuse figure's name, to keep two machines' runs apart (`_h200`).
    #[arg(long, default_value = "")]
    pub tag: String,
}

/// `x` rounded to `places` decimals: what the table keeps, and so what the chart draws (a redraw
/// from the table then draws the same picture as the measuring run).
pub use bench_harness::digits::round_to;
