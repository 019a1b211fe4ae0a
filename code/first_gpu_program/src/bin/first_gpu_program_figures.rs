//! Where does the time go in a GPU vector addition? For sizes from 1 Ki to 2 Mi elements,
//! measures the CPU loop, the whole GPU round trip (upload, dispatch, read-back) and the kernel
//! alone (GPU timestamps), and writes `figures/first_gpu_vector_add_<tag>.{csv,svg,json}`, where
//! the tag is `lavapipe` on a software adapter, `gpu` otherwise, or what `--tag NAME` says.

use std::process::ExitCode;

use bench_harness::{
    Figure, LineChart, Progress, Series, Sidecar, black_box, measure, measure_durations,
    rows_to_csv,
};
use gpu_context::{GpuContext, workgroups_for};

#[derive(clap::Parser)]
#[command(about = "Times a GPU vector addition against a CPU loop, size by size")]
struct Cli {
    #[command(flatten)]
    figures: bench_harness::FigureArgs,
    /// Name the figure `first_gpu_vector_add_<TAG>` (default: `lavapipe` on a software adapter,
    /// `gpu` otherwise).
    #[arg(long)]
    tag: Option<String>,
}

/// One size and variant of `first_gpu_vector_add_<tag>.csv`: seconds, to five significant digits.
#[derive(serde::Serialize)]
struct TimeRow {
    elements: usize,
    variant: &'static str,
    median_s: f64,
    p10_s: f64,
    p90_s: f64,
}

/// `x` to five significant digits.
fn sig5(x: f64) -> f64 {
    format!("{x:.4e}").parse().unwrap_or(x)
}

fn main() -> ExitCode {
    bench_harness::exit_code(run(clap::Parser::parse()))
}

fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
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
    let mut series = [
        Series::new("CPU loop"),
        Series::new("GPU round trip"),
        Series::new("GPU kernel only"),
    ];
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
        for (i, (variant, stats)) in [
            ("cpu_loop", cpu),
            ("gpu_round_trip", round_trip),
            ("gpu_kernel", kernel),
        ]
        .iter()
        .enumerate()
        {
            rows.push(TimeRow {
                elements: n,
                variant,
                median_s: sig5(stats.median),
                p10_s: sig5(stats.p10),
                p90_s: sig5(stats.p90),
            });
            series[i].point_with_spread(
                n as f64,
                stats.median * 1e6,
                stats.p10 * 1e6,
                stats.p90 * 1e6,
            );
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
    let chart = LineChart {
        title: "Adding two f32 vectors".into(),
        subtitle: format!("{} · {}", sidecar.machine.cpu_model, report.name),
        x_label: "elements".into(),
        y_label: "time (µs, median; whiskers p10–p90)".into(),
        log_x: true,
        log_y: true,
        series: series.to_vec(),
        markers: Vec::new(),
    };
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}
