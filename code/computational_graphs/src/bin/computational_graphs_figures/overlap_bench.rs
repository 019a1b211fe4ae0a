//! Copy/compute overlap: one batch through Linear, serial against pipelined, over chunk counts.
//!
//! Every time is the CPU clock around a whole run, from the first CPU copy of the input to the
//! last CPU copy of the output. The serial schedule's three phases are also timed one by one:
//! the longest of them is what a perfect overlap could come down to.

use bench_harness::digits::round_to;
use bench_harness::{Drawn, Figure, Found, LineChart, Progress, Series, Stats};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::transfers::{ChunkedLinear, Schedule};
use gpu_context::GpuContext;

use crate::args::Args;
use crate::charts::{gpu_subtitle, subtitle};
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

/// One schedule or phase at one chunk count of `{prefix}_overlap.csv`; the chart is drawn from
/// these rows, by the measuring run and by `--redraw` alike.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct OverlapRow {
    chunks: usize,
    schedule: String,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    samples: usize,
    rows: usize,
    k: usize,
    n: usize,
    bytes_each_way: usize,
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let cfg = config(args.quick);
    let mut rng = SplitMix64::new(0x0be1);
    let x = Tensor2D::random(cfg.rows, WIDTH, 1.0, &mut rng);
    let w = Tensor2D::random(WIDTH, WIDTH, 0.1, &mut rng);
    let b = Tensor2D::random(1, WIDTH, 0.1, &mut rng);
    let mut csv: Vec<OverlapRow> = Vec::new();
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
        for (name, s) in &measured {
            csv.push(OverlapRow {
                chunks,
                schedule: (*name).to_owned(),
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
        .chart(chart(subtitle(ctx, args), &csv).to_svg())
        .write()?;
    Ok(())
}

fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// The overlap chart: the lines `SERIAL`, `ONE`, `PIPELINED` (and any other schedule the table
/// names), and `BOUND`, the longest of the serial phases' medians at each chunk count.
pub fn chart(subtitle: String, rows: &[OverlapRow]) -> LineChart {
    let mut lines: Vec<Series> = [SERIAL, ONE, PIPELINED]
        .iter()
        .map(|s| Series::new(s))
        .collect();
    let mut bounds: Vec<(usize, f64)> = Vec::new();
    for r in rows {
        if PHASES.contains(&r.schedule.as_str()) {
            match bounds.iter_mut().find(|(chunks, _)| *chunks == r.chunks) {
                Some((_, bound)) => *bound = bound.max(r.median_ms),
                None => bounds.push((r.chunks, r.median_ms)),
            }
            continue;
        }
        let line = match lines.iter().position(|l| l.name == r.schedule) {
            Some(i) => &mut lines[i],
            None => {
                lines.push(Series::new(&r.schedule));
                lines.last_mut().expect("just pushed")
            }
        };
        line.point_with_spread(r.chunks as f64, r.median_ms, r.p10_ms, r.p90_ms);
    }
    let mut bound = Series::new(BOUND);
    for (chunks, ms) in bounds {
        bound.point(chunks as f64, ms);
    }
    lines.push(bound);
    let batch = rows.first().map_or(0, |r| r.rows);
    LineChart {
        title: format!(
            "Copy/compute overlap: {batch}×{WIDTH} through a {WIDTH}×{WIDTH} Linear, in chunks"
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

/// `--redraw` of `{prefix}_overlap`: the chart again from its rows, subtitled from the sidecar.
pub fn redraw(found: &Found) -> Result<Drawn, Box<dyn std::error::Error>> {
    let rows: Vec<OverlapRow> = found.rows()?;
    Ok(Drawn::chart(
        found,
        chart(gpu_subtitle(found)?, &rows).to_svg(),
    ))
}
