//! Latency of one LeNet-5 image on one CPU thread, with the model's parameters, bytes and
//! FLOPs computed by `quantization::lenet` (run from the repository root):
//! `cargo run --release -p quantization --bin lenet_figures -- --machine vm2core`.

use std::time::Instant;

use bench_harness::{Csv, Drawn, FigureArgs, Sidecar, figures_dir};
use quantization::lenet::{INPUT_SIZE, LeNet5};

const PARTS: &[&str] = &["latency"];

/// Per-image times in microseconds over `images` images, after a warm-up of 100 images.
fn time_images(net: &LeNet5, images: usize) -> anyhow::Result<Vec<f64>> {
    let image: Vec<f32> = (0..INPUT_SIZE * INPUT_SIZE)
        .map(|i| ((i * 37) % 101) as f32 / 100.0)
        .collect();
    let mut sink = 0.0f32;
    for _ in 0..100 {
        sink += net.forward(&image)?[0];
    }
    let mut times = Vec::with_capacity(images);
    for _ in 0..images {
        let start = Instant::now();
        sink += std::hint::black_box(net.forward(std::hint::black_box(&image))?)[0];
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    std::hint::black_box(sink);
    times.sort_by(f64::total_cmp);
    Ok(times)
}

/// `--redraw`: the figure is a table for the text, so there is no chart to draw again.
fn redraw(args: &FigureArgs) -> anyhow::Result<()> {
    args.redraw(
        "lenet_figures",
        &["code/quantization/src/bin/lenet_figures"],
        |_| {
            Ok::<_, std::convert::Infallible>(Drawn::Kept(
                "a table for the text, without a chart".into(),
            ))
        },
    )?;
    Ok(())
}

fn run(args: &FigureArgs) -> anyhow::Result<()> {
    if args.redraw {
        return redraw(args);
    }
    args.start(PARTS)?;
    let name = match &args.machine {
        Some(m) => format!("lenet_{m}_latency"),
        None => "lenet_latency".to_string(),
    };
    let net = LeNet5::random(2026);
    let images = if args.quick { 200 } else { 5_000 };
    let times = time_images(&net, images)?;
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let flops = net.flops_per_image();
    let mut csv = Csv::new(&[
        "model",
        "parameters",
        "bytes_fp32",
        "bytes_fp16",
        "bytes_int8",
        "flops_per_image",
        "images",
        "median_us",
        "p10_us",
        "p90_us",
        "gflops_at_median",
    ]);
    csv.row(&[
        "LeNet-5 (random weights, ReLU, max pool)".into(),
        net.parameters().to_string(),
        net.bytes(32).to_string(),
        net.bytes(16).to_string(),
        net.bytes(8).to_string(),
        flops.to_string(),
        images.to_string(),
        format!("{:.3}", at(0.5)),
        format!("{:.3}", at(0.1)),
        format!("{:.3}", at(0.9)),
        format!("{:.4}", flops as f64 / (at(0.5) * 1e3)),
    ]);
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let mut sidecar = Sidecar::new(
        &name,
        "LeNet-5 forward pass, one image, one CPU thread, f32",
    );
    sidecar.notes = vec![format!(
        "seed 2026, {images} images after 100 warm-up images"
    )];
    sidecar.files = vec![format!("{name}.csv")];
    sidecar.write(&dir.join(format!("{name}.json")))?;
    println!("latency → {name}.csv (median {:.1} µs)", at(0.5));
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = FigureArgs::parse_with_about("LeNet-5 latency per image on one CPU thread");
    bench_harness::exit_code(run(&args))
}
