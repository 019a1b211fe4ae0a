//! Module 3's number formats on the reader's GPU: one tiled GEMM in f32, f16 and int8 (with the
//! packed dot product and with shifts), from `quantization`'s template and set-up, each checked
//! against an exact product with the error bound its format allows.

use gpu_context::GpuContext;
use quantization::gemm::{GemmInputs, GemmKind, GemmOnDevice, reference};
use serde::Serialize;

use crate::DemoError;
use crate::clock::{Timing, time_repeated};
use crate::display::{Display, Row, describe, sig3};
use crate::error::check_offered;
use crate::reference::{Check, F16_UNIT, F32_UNIT, check_within, gamma};

/// Square sizes a reader can pick: both are in the book's GEMM figure.
pub const SIZES: [usize; 2] = [512, 1024];
const SEED: u64 = 0xF0_4A75;

#[derive(Debug, Serialize)]
pub struct FormatResult {
    pub format: &'static str,
    /// None when this adapter cannot run the format (then `why_not` says why).
    pub measured: Option<(Check, Timing)>,
    pub why_not: Option<String>,
    pub tera_ops: f64,
}

#[derive(Debug, Serialize)]
pub struct FormatsReport {
    pub size: usize,
    pub formats: Vec<FormatResult>,
}

/// The exact product (f64, from the format's own inputs) and how far a correct kernel may be
/// from it, element by element.
///
/// - f32: k products summed in f32, in any order: within γ₃₂(k)·Σ|a||b|.
/// - f16: each four-product `dot` in f16 is within γ₁₆(4) of its group's Σ|a||b|, and the k/4
///   group results are summed in f32: γ₁₆(4) + γ₃₂(k/4)·(1 + γ₁₆(4)), times Σ|a||b|.
/// - int8: integer sums are exact; only the final conversion to f32 can round, and only past
///   2²⁴.
///
/// The f64 reference adds its own γ₆₄(k), negligible but counted.
pub fn exact_and_bound(
    kind: GemmKind,
    inputs: &GemmInputs,
    n: usize,
    k: usize,
) -> (Vec<f64>, Vec<f64>) {
    let want = reference(inputs, n, n, k);
    let k4 = k.div_ceil(4) * 4;
    let magnitude = |i: usize, j: usize| -> f64 {
        let a = &inputs.a_values[i * k4..(i + 1) * k4];
        let b = &inputs.b_t_values[j * k4..(j + 1) * k4];
        a.iter().zip(b).map(|(x, y)| (x * y).abs()).sum()
    };
    let f64_part = gamma(k4, f64::EPSILON / 2.0);
    let factor = match kind {
        GemmKind::F32 => gamma(k4, F32_UNIT) + f64_part,
        GemmKind::F16 => {
            let group = gamma(4, F16_UNIT);
            group + gamma(k4 / 4, F32_UNIT) * (1.0 + group) + f64_part
        }
        GemmKind::Int8 | GemmKind::Int8Shifts => 0.0,
    };
    let bound = (0..n * n)
        .map(|ij| {
            if factor == 0.0 {
                let w = want[ij] as f32;
                // Integers up to 2^24 are exact in f32; past that, one unit in the last place.
                if w.abs() <= 16_777_216.0 {
                    0.0
                } else {
                    f64::from(w.abs()) * f64::from(f32::EPSILON)
                }
            } else {
                factor * magnitude(ij / n, ij % n)
            }
        })
        .collect();
    (want, bound)
}

/// Every format at `size`: the f16 kernel only where the adapter has `shader-f16`.
pub async fn run_formats(ctx: &GpuContext, size: usize) -> Result<FormatsReport, DemoError> {
    check_offered("size", size, &SIZES)?;
    let mut formats = Vec::with_capacity(GemmKind::ALL.len());
    for kind in GemmKind::ALL {
        formats.push(run_format(ctx, kind, size).await?);
    }
    Ok(FormatsReport { size, formats })
}

/// One format: inputs in that format, one checked run, then timing.
pub async fn run_format(
    ctx: &GpuContext,
    kind: GemmKind,
    size: usize,
) -> Result<FormatResult, DemoError> {
    if !ctx.device.features().contains(kind.feature()) {
        return Ok(FormatResult {
            format: kind.label(),
            measured: None,
            why_not: Some(
                "not run: this adapter does not offer f16 arithmetic in shaders (WebGPU's \
                 \"shader-f16\" feature)"
                    .into(),
            ),
            tera_ops: 0.0,
        });
    }
    let (n, k) = (size, size);
    let inputs = GemmInputs::random(kind, n, n, k, SEED);
    let gemm = GemmOnDevice::with_inputs(ctx, kind, n, n, k, &inputs)?;
    let got = gemm.result_async(ctx).await?;
    let (want, bound) = exact_and_bound(kind, &inputs, n, k);
    let check = check_within(&got, &want, &bound);
    let timing = time_repeated(|repeats| {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        gemm.record(&mut encoder, repeats as usize);
        ctx.queue.submit([encoder.finish()]);
        async move { Ok(ctx.wait_async().await?) }
    })
    .await?;
    Ok(FormatResult {
        format: kind.label(),
        tera_ops: gemm.ops() / (timing.median_ms * 1e9),
        measured: Some((check, timing)),
        why_not: None,
    })
}

impl FormatsReport {
    pub fn display(&self) -> Display {
        let rows = self
            .formats
            .iter()
            .map(|f| match (&f.measured, &f.why_not) {
                (Some((check, timing)), _) => Row {
                    key: f.format.into(),
                    yours: format!("{} TOPS ({} ms)", sig3(f.tera_ops), sig3(timing.median_ms)),
                    check: describe(check, "within the format's error bound"),
                    ok: check.passed(),
                    ran: true,
                },
                (None, why) => Row {
                    key: f.format.into(),
                    yours: "—".into(),
                    check: why.clone().unwrap_or_default(),
                    ok: true,
                    ran: false,
                },
            })
            .collect();
        let s = self.size;
        Display {
            rows,
            notes: vec![format!(
                "C = A·Bᵀ, {s}×{s} by {s}×{s}, in each format's own random inputs; time per \
                 product, the median of a few samples of repeated dispatches."
            )],
        }
    }
}
