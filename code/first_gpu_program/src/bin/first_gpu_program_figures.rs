//! Where does the time go in a GPU vector addition? For sizes from 1 Ki to 2 Mi elements,
//! measures the CPU loop, the whole GPU round trip (upload, dispatch, read-back) and the kernel
//! alone (GPU timestamps), and writes `figures/first_gpu_vector_add_<tag>.{csv,svg,json}`, where
//! the tag is `lavapipe` on a software adapter, `gpu` otherwise, or what `--tag NAME` says.

use std::process::ExitCode;

use bench_harness::{
    Csv, LineChart, Progress, Series, Sidecar, black_box, figures_dir, measure, measure_durations,
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
    let mut csv = Csv::new(&["elements", "variant", "median_s", "p10_s", "p90_s"]);
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
            csv.row(&[
                n.to_string(),
                (*variant).into(),
                format!("{:.4e}", stats.median),
                format!("{:.4e}", stats.p10),
                format!("{:.4e}", stats.p90),
            ]);
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
    sidecar.adapter_json = Some(report.to_json());
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
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    chart.write(&dir.join(format!("{name}.svg")))?;
    sidecar.write(&dir.join(format!("{name}.json")))?;
    println!("{}", csv.as_str());
    println!("wrote {}", dir.join(format!("{name}.svg")).display());
    Ok(())
}
