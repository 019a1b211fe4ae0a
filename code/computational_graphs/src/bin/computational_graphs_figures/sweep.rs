//! The two sweeps of the seed's figures: depth 64 over sizes, and size 256 over depths.

use bench_harness::{BarChart, Figure, Progress, figures_dir};
use computational_graphs::random_graph::{GraphDescription, describe, random_graph};
use gpu_context::GpuContext;

use crate::args::Args;
use crate::autotune_report;
use crate::charts::{line_chart, subtitle, sweep_title};
use crate::tables::{PytorchRow, Row, SWEEP_DEPTH, read_pytorch};
use crate::variants::{Effort, Variant, measure_variant};

/// Every point of both sweeps: (sweep name, size, depth).
pub fn points(args: &Args) -> Vec<(&'static str, usize, usize)> {
    let mut p = Vec::new();
    if args.wants("sizes") {
        p.extend(args.sizes().into_iter().map(|s| ("size", s, SWEEP_DEPTH)));
    }
    if args.wants("depths") {
        p.extend(
            args.depths()
                .into_iter()
                .map(|d| ("depth", args.sweep_size(), d)),
        );
    }
    p
}

/// The seed of a point's random graph: the same everywhere, so PyTorch builds the same graph.
pub fn seed(size: usize, depth: usize) -> u64 {
    size as u64 * 1000 + depth as u64
}

/// The sweeps' graphs as JSON, for `bench/pytorch_baseline.py`.
pub fn export(args: &Args) -> String {
    #[derive(serde::Serialize)]
    struct Point {
        sweep: &'static str,
        graph: GraphDescription,
    }
    #[derive(serde::Serialize)]
    struct Export {
        warmup: usize,
        samples: usize,
        loop_iterations: usize,
        ladder_size: usize,
        graphs: Vec<Point>,
    }
    let (warmup, samples, loop_iterations) = args.effort(args.sweep_size());
    let graphs = points(args)
        .into_iter()
        .map(|(sweep, size, depth)| Point {
            sweep,
            graph: describe(seed(size, depth), size, depth),
        })
        .collect();
    let export = Export {
        warmup,
        samples,
        loop_iterations,
        ladder_size: args.ladder_size,
        graphs,
    };
    let mut json = serde_json::to_string(&export).expect("plain data always serialises");
    json.push('\n');
    json
}

pub fn run(ctx: &mut GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let points = points(args);
    let progress = Progress::new((points.len() * Variant::ALL.len()) as u64, "graph sweeps");
    let mut rows = Vec::new();
    let mut tuner = autotune_report::tuner(ctx, args)?;
    for &(sweep, size, depth) in &points {
        let (list, input) = random_graph(seed(size, depth), size, depth);
        let (warmup, samples, loop_iterations) = args.effort(size);
        let effort = Effort {
            warmup,
            samples,
            loop_iterations,
        };
        for v in Variant::ALL {
            progress.step(&format!("{} {size}/{depth}", v.name()));
            if v.is_cpu() && size > args.cpu_max_size() {
                continue;
            }
            // `--only …,loops`: just the variants that run a whole loop in one submission.
            if args.wants_only("loops") && !v.is_loop() {
                continue;
            }
            // `--only …,compiled`: just the compiled loops (generated, heuristic, autotuned).
            if args.wants_only("compiled") && !v.is_compiled() {
                continue;
            }
            // `--only …,chains`: the chained loops and the autotuned loop without chains.
            if args.wants_only("chains") && !v.is_chain_comparison() {
                continue;
            }
            let m = measure_variant(ctx, v, &list, &input, &effort, &mut tuner)?;
            let ms = |s: f64| s * 1e3;
            rows.push(Row {
                sweep,
                size,
                depth,
                variant: v,
                setup_ms: m.setup.as_secs_f64() * 1e3,
                tuning_ms: m.tuning.as_secs_f64() * 1e3,
                median_ms: ms(m.per_run.median),
                p10_ms: ms(m.per_run.p10),
                p90_ms: ms(m.per_run.p90),
                gpu_ms: m.gpu_per_run.map(|d| d.as_secs_f64() * 1e3),
            });
        }
        // Written after every point, so a run that is cut short keeps what it measured.
        write(ctx, args, &rows)?;
        autotune_report::write(ctx, args, &tuner)?;
    }
    progress.finish();
    tuner.save()?;
    Ok(())
}

fn write(ctx: &GpuContext, args: &Args, rows: &[Row]) -> Result<(), Box<dyn std::error::Error>> {
    // Charts are drawn from the rows as the table keeps them (rounded), so that `--redraw` from
    // the CSV draws the same picture.
    let rows: Vec<Row> = rows
        .iter()
        .map(|r| Row::from_record(r.record()))
        .collect::<Result<_, _>>()?;
    let rows = &rows[..];
    let dir = figures_dir();
    let p = &args.prefix;
    let pytorch: Vec<PytorchRow> = match &args.pytorch_csv {
        Some(path) => read_pytorch(std::path::Path::new(path))?,
        None => Vec::new(),
    };
    let adapter = Some(ctx.report());
    let sub = subtitle(ctx, args);
    for sweep in ["size", "depth"] {
        let (title, x_label) = sweep_title(sweep, args.sweep_size());
        if !rows.iter().any(|r| r.sweep == sweep) {
            continue;
        }
        let chart = line_chart(rows, &pytorch, sweep, &title, &sub, x_label);
        let name = format!("{p}_{sweep}");
        let records: Vec<_> = rows
            .iter()
            .filter(|r| r.sweep == sweep)
            .map(Row::record)
            .collect();
        let desc = format!("{title}; median of the samples, whiskers p10–p90; data in {name}.csv");
        Figure::new(args.sidecar(&name, &desc, adapter))
            .rows(&records)?
            .chart(chart.to_svg())
            .write_to(&dir)?;
    }
    if let Some(chart) = setup_chart(rows, args.sweep_size(), &sub) {
        let name = format!("{p}_setup");
        let mut sidecar = args.sidecar(
            &name,
            "one-time set-up per variant; data in the setup_ms column of the depth CSV",
            adapter,
        );
        sidecar.files = vec![format!("{name}.svg"), format!("{p}_depth.csv")];
        Figure::new(sidecar).chart(chart.to_svg()).write_to(&dir)?;
    }
    let summary = summary_table(rows, &pytorch, &sub, args.sweep_size());
    if !summary.is_empty() {
        std::fs::write(dir.join(format!("{p}_summary.md")), summary)?;
    }
    eprintln!("wrote the sweeps to {}", dir.display());
    Ok(())
}

/// One-time costs at the seed's reference point (depth `SWEEP_DEPTH` of the depth sweep), apart
/// from the per-run times; `None` when the run had no such rows.
pub fn setup_chart(rows: &[Row], size: usize, sub: &str) -> Option<BarChart> {
    let at: Vec<&Row> = rows
        .iter()
        .filter(|r| r.sweep == "depth" && r.depth == SWEEP_DEPTH)
        .collect();
    (!at.is_empty()).then(|| BarChart {
        title: format!("One-time set-up cost, {size}×{size}, depth {SWEEP_DEPTH}"),
        subtitle: sub.to_owned(),
        y_label: "one-time set-up, ms (log)".into(),
        log_y: true,
        bars: at
            .iter()
            .filter(|r| r.setup_ms > 0.0)
            .map(|r| (r.variant.name().to_owned(), r.setup_ms, None))
            .collect(),
    })
}

/// A Markdown table of every variant at the reference point (256², depth 64), for the book.
fn summary_table(rows: &[Row], pytorch: &[PytorchRow], sub: &str, sweep_size: usize) -> String {
    let at = |size: usize, depth: usize| size == sweep_size && depth == SWEEP_DEPTH;
    let ours: Vec<&Row> = rows
        .iter()
        .filter(|r| r.sweep == "depth" && at(r.size, r.depth))
        .collect();
    let Some(immediate) = ours.iter().find(|r| r.variant == Variant::Immediate) else {
        return String::new();
    };
    let base = immediate.median_ms;
    let mut t = format!(
        "| variant ({sweep_size}×{sweep_size}, depth {SWEEP_DEPTH}) | ms per run (median) | p10–p90 | GPU timestamps | one-time set-up | speed-up vs GPU immediate |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n"
    );
    for r in &ours {
        t.push_str(&format!(
            "| {} | {:.3} | {:.3}–{:.3} | {} | {} | {:.1}× |\n",
            r.variant.name(),
            r.median_ms,
            r.p10_ms,
            r.p90_ms,
            r.gpu_ms.map_or("–".into(), |g| format!("{g:.3} ms")),
            if r.setup_ms > 0.0 {
                format!("{:.1} ms", r.setup_ms)
            } else {
                "–".into()
            },
            base / r.median_ms
        ));
    }
    for r in pytorch
        .iter()
        .filter(|r| r.sweep == "depth" && at(r.size, r.depth))
    {
        t.push_str(&format!(
            "| {} | {:.3} | {:.3}–{:.3} | – | – | {:.1}× |\n",
            r.variant,
            r.median_ms,
            r.p10_ms,
            r.p90_ms,
            base / r.median_ms
        ));
    }
    t.push_str(&format!("\nMeasured on {sub}.\n"));
    t
}
