//! Times tuned-kernel configurations over sizes (a tuning aid; the figures use the ladder).
//! `cargo run --release -p computational_graphs --example tuned_probe -- 256,1024,4096`
use clap::Parser;
use computational_graphs::matmul_ladder::PreparedMatmul;
use computational_graphs::matmul_ladder::tuned::Tuning;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

/// Times tuned-kernel configurations of the matmul ladder on square products n × n × n.
#[derive(Debug, Parser)]
struct Args {
    /// The sizes n to time, separated by commas.
    #[arg(value_delimiter = ',', default_values_t = [64, 128])]
    sizes: Vec<usize>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes = Args::parse().sizes;
    let ctx = GpuContext::new()?;
    eprintln!("{}", ctx.report());
    let l = Tuning::LARGE;
    let configs = [
        ("large 128x128", l),
        (
            "large no-prefetch",
            Tuning {
                prefetch: false,
                ..l
            },
        ),
        ("large bk8", Tuning { bk: 8, ..l }),
        ("128x64", Tuning { vec_cols: 1, ..l }),
        (
            "64x128 t32x8",
            Tuning {
                threads: (32, 8),
                vec_cols: 1,
                ..l
            },
        ),
        (
            "64x64 t8x8 8x8",
            Tuning {
                threads: (8, 8),
                ..l
            },
        ),
        ("medium 64x64", Tuning::MEDIUM),
        ("small 32x32", Tuning::SMALL),
        (
            "16x64 t16x4",
            Tuning {
                threads: (16, 4),
                ..Tuning::SMALL
            },
        ),
    ];
    for &n in &sizes {
        let mut rng = SplitMix64::new(7);
        let a = Tensor2D::random(n, n, 1.0, &mut rng);
        let b = Tensor2D::random(n, n, 1.0, &mut rng);
        let repeats = (4096 / n).clamp(2, 64) * 2;
        for (name, t) in configs {
            let t = t.for_shape(n, n, n);
            let p = PreparedMatmul::tuned(&ctx, &t, &a, &b, None)?;
            let mut best = f64::MAX;
            for _ in 0..5 {
                let run = ctx.time_commands(|enc| p.record(enc, repeats))?;
                best = best.min(run.time.as_secs_f64() / repeats as f64);
            }
            let tflops = 2.0 * (n as f64).powi(3) / best / 1e12;
            println!(
                "{n}\t{name}\texact={}\t{:.4} ms\t{tflops:.2} TFLOP/s",
                t.exact,
                best * 1e3
            );
        }
    }
    Ok(())
}
