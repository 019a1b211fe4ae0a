//! Module 1's matmul ladder on the reader's GPU: every rung of `computational_graphs`, with the
//! crate's own kernels and set-up (`PreparedMatmul`), read back and timed without blocking.

use computational_graphs::cpu_matmul;
use computational_graphs::matmul_ladder::{PreparedMatmul, Rung};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;
use serde::Serialize;

use crate::DemoError;
use crate::clock::{Timing, time_repeated};
use crate::display::{Display, Row, describe, sig3};
use crate::error::check_offered;
use crate::reference::{Check, F32_UNIT, check_within, gamma};

/// The square sizes a reader can pick (the CPU check of 1024³ takes a few seconds in a page).
pub const SIZES: [usize; 4] = [64, 256, 512, 1024];
const SEED: u64 = 0x1AD0E5;

/// One rung on one size.
#[derive(Debug, Serialize)]
pub struct RungResult {
    /// The rung as the crate (and the book's CSVs) name it.
    pub rung: &'static str,
    pub check: Check,
    pub timing: Timing,
    pub gflops: f64,
}

#[derive(Debug, Serialize)]
pub struct LadderReport {
    pub size: usize,
    pub rungs: Vec<RungResult>,
}

/// The two inputs of a size×size product, values in [−1, 1].
pub fn inputs(size: usize) -> (Tensor2D, Tensor2D) {
    let mut rng = SplitMix64::new(SEED);
    let a = Tensor2D::random(size, size, 1.0, &mut rng);
    let b = Tensor2D::random(size, size, 1.0, &mut rng);
    (a, b)
}

/// A · B on the CPU, and how far from it a correct GPU result may be, element by element.
///
/// Any order of summation of k products in f32 is within γ(k)·Σ|a||b| of the exact product, so a
/// correct GPU and the CPU are within twice that of each other; Σ|a||b| is itself computed in
/// f32, off by at most a factor 1 + γ(k).
pub fn cpu_product(a: &Tensor2D, b: &Tensor2D) -> (Vec<f64>, Vec<f64>) {
    let ((m, k), n) = (a.shape(), b.cols());
    let mut c = vec![0.0; m * n];
    cpu_matmul::blocked(a.data(), b.data(), &mut c, m, k, n);
    let abs = |t: &Tensor2D| t.data().iter().map(|x| x.abs()).collect::<Vec<_>>();
    let mut magnitude = vec![0.0; m * n];
    cpu_matmul::blocked(&abs(a), &abs(b), &mut magnitude, m, k, n);
    let g = gamma(k, F32_UNIT);
    let factor = 2.0 * g * (1.0 + g);
    (
        c.iter().map(|&x| f64::from(x)).collect(),
        magnitude.iter().map(|&s| factor * f64::from(s)).collect(),
    )
}

/// Every rung of the ladder at `size`, each checked against the CPU and timed.
pub async fn run_ladder(ctx: &GpuContext, size: usize) -> Result<LadderReport, DemoError> {
    check_offered("size", size, &SIZES)?;
    let (a, b) = inputs(size);
    let (want, bound) = cpu_product(&a, &b);
    let mut rungs = Vec::with_capacity(Rung::ALL.len());
    for rung in Rung::ALL {
        rungs.push(run_rung(ctx, rung, &a, &b, &want, &bound).await?);
    }
    Ok(LadderReport { size, rungs })
}

/// One rung: set up by the crate, run once and checked, then timed.
pub async fn run_rung(
    ctx: &GpuContext,
    rung: Rung,
    a: &Tensor2D,
    b: &Tensor2D,
    want: &[f64],
    bound: &[f64],
) -> Result<RungResult, DemoError> {
    let prepared = PreparedMatmul::new(ctx, rung, a, b)?;
    let submit = |repeats: u32| {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        prepared.record(&mut encoder, repeats as usize);
        ctx.queue.submit([encoder.finish()]);
    };
    submit(1);
    let got = prepared.output().download_async(ctx).await?;
    let check = check_within(got.data(), want, bound);
    let timing = time_repeated(|repeats| {
        submit(repeats);
        async move { Ok(ctx.wait_async().await?) }
    })
    .await?;
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let flops = 2.0 * (m * k * n) as f64;
    Ok(RungResult {
        rung: rung.name(),
        check,
        gflops: flops / (timing.median_ms * 1e6),
        timing,
    })
}

impl LadderReport {
    pub fn display(&self) -> Display {
        let rows = self
            .rungs
            .iter()
            .map(|r| Row {
                key: r.rung.into(),
                yours: format!(
                    "{} GFLOP/s ({} ms)",
                    sig3(r.gflops),
                    sig3(r.timing.median_ms)
                ),
                check: describe(&r.check, "within the rounding bound"),
                ok: r.check.passed(),
                ran: true,
            })
            .collect();
        let s = self.size;
        Display {
            rows,
            notes: vec![format!(
                "{s}×{s} · {s}×{s} in f32; time per product, measured with the page's clock \
                 around repeated dispatches in one submission (the median of a few samples)."
            )],
        }
    }
}
