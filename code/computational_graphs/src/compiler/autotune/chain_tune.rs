//! Tuning a chain kernel's layout: one workgroup per row, or blocks of rows
//! ([`ChainLayout`]), timed on the device like the Linear candidates are.
//!
//! A chain is keyed by its rows and its steps ([`ChainKey`]), so that the same graph shape meets
//! its winner again from the cache, and another chain never does.

use std::time::{Duration, Instant};

use gpu_context::GpuContext;

use super::cache::ChainKey;
use super::trial::median;
use crate::Error;
use crate::compiler::chain::{self, ChainStep, Link};
use crate::compiler::chain_block::{ChainLayout, generate_with_layout};
use crate::graph::{BufferId, Contents, VerifiedGraph};
use crate::ops::gpu::Dispatch;
use crate::rng::SplitMix64;
use crate::tensor::{GpuTensor, Tensor2D};

/// Every layout of a chain that was timed, with its median, and every one that was not, with
/// the reason.
#[derive(Clone, Debug)]
pub struct ChainTimings {
    pub timed: Vec<(ChainLayout, f64)>,
    pub rejected: Vec<(ChainLayout, String)>,
}

impl ChainTimings {
    /// The fastest median (the first on a tie: the heuristic's, when it was timed).
    pub fn winner(&self) -> (ChainLayout, f64) {
        let mut best = self.timed[0];
        for &(layout, t) in &self.timed {
            if t < best.1 {
                best = (layout, t);
            }
        }
        best
    }
}

/// The chain on the CPU, one row after the other, in the order the steps run.
fn cpu_chain(graph: &VerifiedGraph, links: &[Link], input: &Tensor2D) -> Tensor2D {
    let parameter = |b: BufferId| match &graph.buffer(b).contents {
        Contents::Parameter(t) => t.data(),
        _ => &[],
    };
    let mut rows: Vec<Vec<f32>> = input
        .data()
        .chunks(input.cols().max(1))
        .map(<[f32]>::to_vec)
        .collect();
    for step in links.iter().flat_map(|l| &l.steps) {
        for row in &mut rows {
            match *step {
                ChainStep::Linear {
                    weights,
                    bias,
                    k,
                    n,
                    relu,
                } => {
                    let (w, b) = (parameter(weights), parameter(bias));
                    let mut out = b.to_vec();
                    for (p, &a) in row.iter().take(k).enumerate() {
                        for (o, &wv) in out.iter_mut().zip(&w[p * n..(p + 1) * n]) {
                            *o += a * wv;
                        }
                    }
                    if relu {
                        out.iter_mut().for_each(|v| *v = v.max(0.0));
                    }
                    *row = out;
                }
                ChainStep::Relu { .. } => row.iter_mut().for_each(|v| *v = v.max(0.0)),
                ChainStep::Softmax { .. } => {
                    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    row.iter_mut().for_each(|v| *v = (*v - max).exp());
                    let sum: f32 = row.iter().sum();
                    row.iter_mut().for_each(|v| *v /= sum);
                }
            }
        }
    }
    let cols = links.last().map_or(0, |l| l.width_out);
    Tensor2D::new(rows.len(), cols, rows.concat()).expect("every row is as wide as the last step")
}

/// Runs of the chain per timed submission: long against the timer's resolution.
const REPEATS: usize = 20;

// ANCHOR: tune_chain
/// Checks every layout against the CPU on a random input and times the correct ones (after
/// `warm_up` on the first), in rounds of one sample each; the fastest median wins.
pub fn tune_chain(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    links: &[Link],
    samples: usize,
    warm_up: Duration,
) -> Result<ChainTimings, Error> {
    let key = ChainKey::of(links);
    let (rows, width_in) = (key.rows, links.first().map_or(0, |l| l.width_in));
    let width_out = links.last().map_or(0, |l| l.width_out);
    let mut rng = SplitMix64::new((rows * 31 + width_in) as u64);
    let x = Tensor2D::random(rows, width_in, 1.0, &mut rng);
    let expected = cpu_chain(graph, links, &x);
    let input = GpuTensor::upload(ctx, "chain trial input", &x)?;
    let output = GpuTensor::zeros(ctx, "chain trial output", rows, width_out)?;
    // The tests' tolerance (1e-4 of the largest value), widened slowly with depth: each layer
    // adds its own rounding, in another order than the CPU's.
    let linears = links
        .iter()
        .flat_map(|l| &l.steps)
        .filter(|s| matches!(s, ChainStep::Linear { .. }))
        .count();
    let scale = expected.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let tolerance = 1e-4 * scale * (linears as f32 / 16.0).sqrt().max(1.0);
    let limits = ctx.device.limits();
    let mut rejected = Vec::new();
    let mut checked: Vec<(ChainLayout, Dispatch)> = Vec::new();
    for layout in ChainLayout::candidates(rows) {
        if let Some(why) = layout.unusable(chain::widest(links), &limits) {
            rejected.push((layout, why));
            continue;
        }
        let dispatch = generate_with_layout(graph, links, layout)
            .and_then(|k| k.dispatch(ctx, &input.buffer, &output.buffer));
        let dispatch = match dispatch {
            Ok(d) => d,
            Err(e) => {
                rejected.push((layout, e.to_string()));
                continue;
            }
        };
        // NaN first: an element the kernel never writes cannot pass for a result.
        let poison = vec![f32::NAN; rows * width_out];
        ctx.queue
            .write_buffer(&output.buffer, 0, bytemuck::cast_slice(&poison));
        run(ctx, &dispatch, 1)?;
        let got = output.download(ctx)?;
        let diff = got.max_abs_diff(&expected);
        if diff <= tolerance {
            checked.push((layout, dispatch));
        } else {
            tracing::warn!("chain {key:?}: {layout:?} differs from the CPU by {diff}");
            rejected.push((layout, format!("differs from the CPU by up to {diff}")));
        }
    }
    let Some((_, first)) = checked.first() else {
        return Err(Error::Unsupported {
            kernel: "chain",
            detail: format!("no chain layout computed {key:?} correctly: {rejected:?}"),
        });
    };
    let busy_until = Instant::now() + warm_up;
    while Instant::now() < busy_until {
        run(ctx, first, REPEATS)?;
    }
    let mut times = vec![Vec::with_capacity(samples); checked.len()];
    for _ in 0..samples.max(1) {
        for (i, (_, d)) in checked.iter().enumerate() {
            times[i].push(run(ctx, d, REPEATS)?);
        }
    }
    let timed = checked
        .iter()
        .zip(times)
        .map(|((layout, _), t)| (*layout, median(t)))
        .collect();
    Ok(ChainTimings { timed, rejected })
}
// ANCHOR_END: tune_chain

/// Seconds per run of `d`, from one submission of `repeats` runs.
fn run(ctx: &GpuContext, d: &Dispatch, repeats: usize) -> Result<f64, Error> {
    let timed = ctx.time_commands(|enc| {
        let mut pass = enc.begin_compute_pass(&Default::default());
        for _ in 0..repeats {
            d.record(&mut pass);
        }
    })?;
    Ok(timed.time.as_secs_f64() / repeats as f64)
}
