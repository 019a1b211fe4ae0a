//! The inference case study's measurements (module 4): module 3's quantized classifier, widened,
//! served by the unfused and the fused server; writes CSV + SVG + sidecar JSON to `figures/`.
//!
//! - `latency`: wall-clock latency of many requests per server, format and batch size
//!   (p50/p90/p99/max, and the latency distribution as a chart);
//! - `stages`: GPU timestamp scopes around each stage of a request (dequantize, matmul,
//!   bias+relu, read-back), the median of several profiled requests;
//! - `steps`: the three changes one at a time and together (int8): each variant's latency, its
//!   GPU time, and its time outside the GPU split by the request's `tracing` spans.
//!
//! ```text
//! cargo run --release -p profiling_lab --bin inference_figures -- --help
//! ```

mod latency;
mod stages;
mod steps;

use anyhow::Context;
use bench_harness::{FigureArgs, Sidecar};
use clap::Parser;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, GpuScopes};
use profiling_lab::inference::{Changes, InferenceError, PackedModel, Server, WeightFormat};
use quantization::model::{Mlp, spirals};

pub const PARTS: [&str; 3] = ["latency", "stages", "steps"];

#[derive(Parser)]
#[command(
    about = "Inference case study: latency and GPU stages, unfused vs fused dequantization, and \
             the three changes one at a time"
)]
pub struct Args {
    #[command(flatten)]
    pub figures: FigureArgs,
    /// Width of the model's three hidden layers (2 → h → h → h → 3) [default: 4096 on a GPU,
    /// 256 on a software adapter such as lavapipe; `--quick`: 128].
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Timed requests per server, format and batch size, after the warm-up [default: 500
    /// on a GPU, 200 on a software adapter; `--quick`: 20].
    #[arg(long)]
    pub requests: Option<usize>,
    /// How the stages part takes its profiled requests: one of each configuration per round
    /// (`turns`), or all of one configuration before the next (`sequential`, written with a
    /// `_sequential` suffix, to show what the order does to GPU times).
    #[arg(long, value_enum, default_value_t = Order::Turns)]
    pub order: Order,
    /// Measure nothing: draw the latency and stages charts again from their CSVs in the output
    /// folder (after the chart code changed); each sidecar keeps the measuring commit and notes
    /// the drawing one. `--only` picks which.
    #[arg(long)]
    pub redraw: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    Turns,
    Sequential,
}

/// The sizes of one run: what the flags ask for, or what suits the adapter.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub hidden: usize,
    pub requests: usize,
}

impl Sizes {
    fn new(args: &Args, ctx: &GpuContext) -> Self {
        let (hidden, requests) = if args.figures.quick {
            (128, 20)
        } else if ctx.report().is_software() {
            (256, 200)
        } else {
            (4096, 500)
        };
        Self {
            hidden: args.hidden.unwrap_or(hidden),
            requests: args.requests.unwrap_or(requests).max(1),
        }
    }
}

/// Batch sizes: one request at a time, and a batch of 64.
pub const BATCHES: [usize; 2] = [1, 64];
pub const FORMATS: [WeightFormat; 2] = [WeightFormat::Int8, WeightFormat::Group4 { group: 32 }];

/// File names carry the machine label when one is given (`infer_h200_latency`).
fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("infer", name)
}

fn sidecar(name: &str, description: &str, ctx: &GpuContext, notes: Vec<String>) -> Sidecar {
    let mut s = Sidecar::new(name, description);
    s.adapter_json = Some(ctx.report().to_json());
    s.notes = notes;
    s
}

/// The baseline or the server with all three changes, as the latency and stages parts compare
/// them.
pub fn start(
    ctx: &GpuContext,
    fused: bool,
    model: PackedModel,
    batch: usize,
) -> Result<Server, InferenceError> {
    let changes = if fused { Changes::ALL } else { Changes::NONE };
    Server::new(ctx, model, changes, batch)
}

/// `unfused` for the baseline, `fused` for all three changes, else the changes made.
pub fn server_label(server: &Server) -> String {
    match server.changes() {
        Changes::NONE => "unfused".into(),
        Changes::ALL => "fused".into(),
        other => other.label(),
    }
}

/// Untimed requests before measuring: at least 10, and at least 0.3 s of them, so that pipelines
/// are compiled, the allocator has its blocks and the GPU's clocks have risen from idle.
pub fn warm_up(
    ctx: &GpuContext,
    server: &mut Server,
    requests: &Requests,
    batch: usize,
) -> Result<(), InferenceError> {
    let start = std::time::Instant::now();
    let mut i = 0;
    while i < 10 || start.elapsed() < std::time::Duration::from_millis(300) {
        server.infer(ctx, &requests.get(i, batch))?;
        i += 1;
    }
    Ok(())
}

/// The widened spiral classifier (random weights: latency does not depend on their values).
pub fn model(hidden: usize) -> Mlp {
    Mlp::new(&[2, hidden, hidden, hidden, 3], 5)
}

/// Request `i` of `batch` rows, taken in turn from a pool of spiral points.
pub struct Requests {
    pool: Tensor2D,
}

impl Default for Requests {
    fn default() -> Self {
        Self {
            pool: spirals(3, 200, 8).x,
        }
    }
}

impl Requests {
    pub fn get(&self, i: usize, batch: usize) -> Tensor2D {
        let rows = self.pool.rows();
        let data = (0..batch)
            .flat_map(|r| {
                let row = (i * batch + r) % rows;
                self.pool.data()[row * 2..row * 2 + 2].to_vec()
            })
            .collect();
        Tensor2D::new(batch, 2, data).expect("two columns per point")
    }
}

fn main() -> std::process::ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    args.figures.start(&PARTS)?;
    if args.redraw {
        if args.figures.wants("latency") {
            latency::redraw(&args)?;
        }
        if args.figures.wants("stages") {
            stages::redraw(&args)?;
        }
        return Ok(());
    }
    // Scopes need the timestamp features; latency alone does not.
    let (ctx, timestamps) = match GpuScopes::open_context() {
        Ok(ctx) => (ctx, true),
        Err(e) => {
            eprintln!("no timestamp scopes ({e}); the stages part is skipped");
            (
                GpuContext::new()
                    .context("the case study needs a GPU adapter (lavapipe will do)")?,
                false,
            )
        }
    };
    eprintln!("GPU: {}", ctx.report().to_json());
    let sizes = Sizes::new(&args, &ctx);
    eprintln!("hidden width {}, {} requests", sizes.hidden, sizes.requests);
    if args.figures.wants("latency") {
        latency::run(&args, sizes, &ctx)?;
    }
    if args.figures.wants("stages") && timestamps {
        stages::run(&args, sizes, &ctx)?;
    }
    if args.figures.wants("steps") {
        steps::run(&args, sizes, &ctx, timestamps)?;
    }
    Ok(())
}
