//! Where does the time go in a GPU vector addition? For sizes from 1 Ki to 2 Mi elements,
//! measures the CPU loop, the whole GPU round trip (upload, dispatch, read-back) and the kernel
//! alone (GPU timestamps), and writes `figures/first_gpu_vector_add_<tag>.{csv,svg,json}`, where
//! the tag is `lavapipe` on a software adapter, `gpu` otherwise, or what `--tag NAME` says.

use std::process::ExitCode;

use bench_harness::{
    Drawn, Figure, FigureArgs, Found, LineChart, Progress, Series, Sidecar, black_box, measure,
    measure_durations, rows_to_csv,
};
use gpu_context::{GpuContext, workgroups_for};

#[derive(clap::Parser)]
#[command(about = "Times a GPU vector addition against a CPU loop, size by size")]
struct Cli {
    #[command(flatten)]
    figures: FigureArgs,
    /// Name the figure `first_gpu_vector_add_<TAG>` (default: `lavapipe` on a software adapter,
    /// `gpu` otherwise).
    #[arg(long)]
    tag: Option<String>,
}

/// One size and variant of `first_gpu_vector_add_<tag>.csv`: seconds, to five significant digits.
#[derive(serde::Serialize, serde::Deserialize)]
struct TimeRow {
    elements: usize,
    variant: String,
    median_s: f64,
    p10_s: f64,
    p90_s: f64,
}

/// `x` to five significant digits.
fn sig5(x: f64) -> f64 {
    bench_harness::digits::significant(x, 5)
}

fn main() -> ExitCode {
    bench_harness::exit_code(run(clap::Parser::parse()))
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    if cli.figures.redraw {
        cli.figures
            .redraw("first_gpu_program_figures", &SOURCES, draw)?;
        return Ok(());
    }
    cli.figures.start(&["vector_add"])?;
    let ctx = GpuContext::new()?;
    let report = ctx.report().clone();
    let tag = match cli.tag {
        Some(tag) => tag,
        None if report.is_software() => "lavapipe".to_owned(),
        None => "gpu".to_owned(),
    };
    let name = format!("first_gpu_vector_add_{tag}");
    // 2^21 is the largest power of two one 1-D dispatch of 64-wide workgroups covers (65 535 × 64).
    let sizes: Vec<usize> = (10..=21).map(|p| 1usize << p).collect();
    let progress = Progress::new(sizes.len() as u64, "vector add");
    let mut rows: Vec<TimeRow> = Vec::new();
    for &n in &sizes {
        progress.step(&format!("{n} elements"));
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
        let mut out = vec![0.0f32; n];

        let cpu = measure(3, 15, || {
            for ((o, x), y) in out.iter_mut().zip(&a).zip(&b) {
                *o = x + y;
            }
            black_box(&mut out);
        });
        let round_trip = measure(2, 10, || {
            black_box(
                first_gpu_program::add_vectors(&ctx, &a, &b).expect("sizes are within limits"),
            );
        });
        // The kernel alone: buffers already on the GPU, timed by the GPU's own clock.
        let (a_buf, b_buf) = (ctx.upload("a", &a)?, ctx.upload("b", &b)?);
        let sum = ctx.storage_buffer("sum", 4 * n as u64)?;
        let pipeline = ctx.cached_pipeline("vector_add", first_gpu_program::SHADER, "add")?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&a_buf, &b_buf, &sum]);
        let kernel = measure_durations(2, 10, || {
            ctx.time_commands(|encoder| {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(workgroups_for(n as u32, 64), 1, 1);
            })
            .expect("a recorded dispatch runs")
            .time
        });
        for ((variant, _), stats) in VARIANTS.iter().zip([cpu, round_trip, kernel]) {
            rows.push(TimeRow {
                elements: n,
                variant: (*variant).to_owned(),
                median_s: sig5(stats.median),
                p10_s: sig5(stats.p10),
                p90_s: sig5(stats.p90),
            });
        }
    }
    progress.finish();

    let mut sidecar = Sidecar::new(
        &name,
        "vector addition: CPU loop vs GPU round trip vs GPU kernel",
    );
    sidecar.set_adapter(&report);
    sidecar.notes.push(format!(
        "kernel time from {}",
        if report.timestamps {
            "GPU timestamps"
        } else {
            "CPU clock"
        }
    ));
    let svg = chart(&sidecar.machine.cpu_model, &report.name, &rows);
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar).rows(&rows)?.chart(svg).write()?;
    Ok(())
}

/// The table's variants and their names in the chart's legend, in legend order.
const VARIANTS: [(&str, &str); 3] = [
    ("cpu_loop", "CPU loop"),
    ("gpu_round_trip", "GPU round trip"),
    ("gpu_kernel", "GPU kernel only"),
];

/// The chart of one `first_gpu_vector_add_<tag>` table: µs against elements, a line per variant;
/// the subtitle names the CPU and the adapter.
fn chart(cpu: &str, adapter: &str, rows: &[TimeRow]) -> String {
    let series = VARIANTS
        .iter()
        .map(|(variant, label)| {
            let mut series = Series::new(label);
            for r in rows.iter().filter(|r| r.variant == *variant) {
                let us = |s: f64| s * 1e6;
                series.point_with_spread(
                    r.elements as f64,
                    us(r.median_s),
                    us(r.p10_s),
                    us(r.p90_s),
                );
            }
            series
        })
        .collect();
    LineChart {
        title: "Adding two f32 vectors".into(),
        subtitle: format!("{cpu} · {adapter}"),
        x_label: "elements".into(),
        y_label: "time (µs, median; whiskers p10–p90)".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/first_gpu_program/src/bin/first_gpu_program_figures.rs"];

/// `--redraw`: one figure's chart again from its table and sidecar, measuring nothing.
fn draw(found: &Found) -> Result<Drawn, bench_harness::FigureError> {
    let rows: Vec<TimeRow> = found.rows()?;
    let adapter = found.adapter_name().unwrap_or("unknown adapter");
    Ok(Drawn::chart(
        found,
        chart(&found.sidecar.cpu, adapter, &rows),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_charts() {
        let redrawn =
            bench_harness::check_committed("first_gpu_program_figures", &SOURCES, |_, found| {
                draw(found)
            })
            .unwrap();
        assert_eq!(redrawn.figures.len(), 2, "{:?}", redrawn.figures);
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 2);
    }
}
