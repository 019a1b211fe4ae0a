//! Copy/compute overlap: one batch through Linear, serial against pipelined, over chunk counts.
//!
//! Every time is the CPU clock around a whole run, from the first CPU copy of the input to the
//! last CPU copy of the output. The serial schedule's three phases are also timed one by one:
//! the longest of them is what a perfect overlap could come down to.

use bench_harness::{Figure, LineChart, Progress, Series, Stats};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::transfers::{ChunkedLinear, Schedule};
use gpu_context::GpuContext;

use crate::args::Args;
use crate::charts::subtitle;
use crate::digits::round_to;
use crate::transfer_bench::timed;

/// Columns of the batch's input and of the weights' output: a 256×256 Linear does 64 FLOPs per
/// byte moved (2·256·256 FLOPs per row against 2·256·4 bytes), so that on a GPU the kernel and
/// the transfers take times of the same order.
pub const WIDTH: usize = 256;
const IN_FLIGHT: usize = 4;

struct Config {
    rows: usize,
    chunk_counts: Vec<usize>,
    warmup: usize,
    samples: usize,
}

fn config(quick: bool) -> Config {
    if quick {
        // lavapipe runs this kernel at a fraction of a GFLOP/s: keep the smoke test short.
        Config {
            rows: 512,
            chunk_counts: vec![1, 2, 4, 8, 16],
            warmup: 1,
            samples: 3,
        }
    } else {
        // 64 MiB in and 64 MiB out.
        Config {
            rows: 65_536,
            chunk_counts: vec![1, 2, 4, 8, 16, 32, 64],
            warmup: 2,
            samples: 10,
        }
    }
}

pub const SERIAL: &str = "serial: upload all, compute all, read all";
pub const ONE: &str = "one chunk at a time";
pub const PIPELINED: &str = "pipelined, 4 chunks in flight";
pub const BOUND: &str = "longest serial phase (perfect overlap)";
pub const PHASES: [&str; 3] = [
    "serial phase: upload",
    "serial phase: compute",
    "serial phase: read back",
];

/// One schedule or phase at one chunk count of `{prefix}_overlap.csv`; `--redraw` reads it back
/// as [`crate::tables::OverlapPoint`].
#[derive(serde::Serialize)]
struct OverlapRow {
    chunks: usize,
    schedule: &'static str,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    samples: usize,
    rows: usize,
    k: usize,
    n: usize,
    bytes_each_way: usize,
}

/// One empty line per schedule plus the perfect-overlap bound, in the chart's order.
pub fn empty_lines() -> Vec<Series> {
    [SERIAL, ONE, PIPELINED, BOUND]
        .iter()
        .map(|s| Series::new(s))
        .collect()
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let cfg = config(args.quick);
    let mut rng = SplitMix64::new(0x0be1);
    let x = Tensor2D::random(cfg.rows, WIDTH, 1.0, &mut rng);
    let w = Tensor2D::random(WIDTH, WIDTH, 0.1, &mut rng);
    let b = Tensor2D::random(1, WIDTH, 0.1, &mut rng);
    let mut csv: Vec<OverlapRow> = Vec::new();
    let mut lines = empty_lines();
    let progress = Progress::new(cfg.chunk_counts.len() as u64, "overlap");
    let mut reference: Option<Vec<f32>> = None;
    for &chunks in &cfg.chunk_counts {
        progress.step(&format!("{chunks} chunks"));
        let linear = ChunkedLinear::new(ctx, cfg.rows, &w, &b, chunks)?;
        let mut out = vec![0.0f32; cfg.rows * WIDTH];
        let (warm, n) = (cfg.warmup, cfg.samples);
        let mut measured: Vec<(&str, Stats)> = Vec::new();
        for (name, schedule) in [
            (SERIAL, Schedule::Serial),
            (ONE, Schedule::Pipelined { in_flight: 1 }),
            (
                PIPELINED,
                Schedule::Pipelined {
                    in_flight: IN_FLIGHT,
                },
            ),
        ] {
            out.fill(f32::NAN);
            let stats = timed(warm, n, || linear.run(ctx, x.data(), &mut out, schedule))?;
            // Every schedule must give the same bits as the first one measured.
            match &reference {
                Some(r) if !same_bits(r, &out) => {
                    return Err(format!("{name} at {chunks} chunks gave a different result").into());
                }
                Some(_) => {}
                None => reference = Some(out.clone()),
            }
            measured.push((name, stats));
        }
        let phases = [
            timed(warm, n, || linear.upload_all(ctx, x.data()))?,
            timed(warm, n, || linear.compute_all(ctx))?,
            timed(warm, n, || linear.read_all(ctx, &mut out))?,
        ];
        measured.extend(PHASES.iter().copied().zip(phases));
        let bound = phases.iter().map(|s| s.median).fold(0.0, f64::max);
        for (name, s) in &measured {
            if let Some(line) = lines.iter_mut().find(|l| l.name == *name) {
                line.point_with_spread(chunks as f64, s.median * 1e3, s.p10 * 1e3, s.p90 * 1e3);
            }
            csv.push(OverlapRow {
                chunks,
                schedule: name,
                median_ms: round_to(s.median * 1e3, 4),
                p10_ms: round_to(s.p10 * 1e3, 4),
                p90_ms: round_to(s.p90 * 1e3, 4),
                samples: s.samples,
                rows: cfg.rows,
                k: WIDTH,
                n: WIDTH,
                bytes_each_way: cfg.rows * WIDTH * 4,
            });
        }
        lines[3].point(chunks as f64, bound * 1e3);
    }
    progress.finish();
    let name = format!("{}_overlap", args.prefix);
    let sidecar = args.sidecar(
        &name,
        "one batch streamed through the Linear kernel in chunks: serial phases against one \
         submission per chunk with 1 or 4 chunks in flight; CPU wall clock, host to host",
        Some(ctx.report()),
    );
    Figure::new(sidecar)
        .rows(&csv)?
        .chart(chart(cfg.rows, subtitle(ctx, args), lines).to_svg())
        .write()?;
    Ok(())
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The overlap chart of a batch of `rows` rows: the lines `SERIAL`, `ONE`, `PIPELINED`, `BOUND`.
pub fn chart(rows: usize, subtitle: String, lines: Vec<Series>) -> LineChart {
    LineChart {
        title: format!(
            "Copy/compute overlap: {rows}×{WIDTH} through a {WIDTH}×{WIDTH} Linear, in chunks"
        ),
        subtitle,
        x_label: "chunks (log)".into(),
        y_label: "milliseconds per batch, host to host".into(),
        log_x: true,
        log_y: false,
        series: lines,
        markers: Vec::new(),
    }
}
