//! The program's command line, the parts `--only` can pick and the sizes of a run: what `main`
//! parses and every part reads (a file of its own, so that the parts need not reach back into
//! `main`).

use bench_harness::FigureArgs;
use clap::Parser;
use gpu_context::GpuContext;

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
    pub fn new(args: &Args, ctx: &GpuContext) -> Self {
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

/// File names carry the machine label when one is given (`infer_h200_latency`).
pub fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("infer", name)
}

/// `x` rounded to `places` decimals: what a table keeps, and so what its chart draws (a redraw
/// from the table then draws the same picture as the measuring run).
pub use bench_harness::digits::round_to;
