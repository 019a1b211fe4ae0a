//! One shape on the GPU: inputs uploaded once, the CPU's answer computed once, and every
//! candidate checked against that answer before it is timed.

use std::sync::Arc;

use gpu_context::{GpuContext, wgpu};

use super::cache::ShapeKey;
use super::split_k::{LinearBuffers, LinearKernel};
use crate::Error;
use crate::matmul_ladder::tuned::{Epilogue, Tuning};
use crate::ops::gpu::Dispatch;
use crate::rng::SplitMix64;
use crate::tensor::{GpuTensor, Tensor2D};

/// The inputs of one product on the device, and the output the CPU computed for them.
pub struct Trial {
    shape: ShapeKey,
    a: GpuTensor,
    b: GpuTensor,
    bias: Option<GpuTensor>,
    c: GpuTensor,
    expected: Tensor2D,
    tolerance: f32,
}

/// A candidate compiled and bound to the trial's buffers: one dispatch, or two for split-K.
pub struct Prepared {
    dispatches: Vec<Dispatch>,
    /// The partial products of split-K (kept alive with the bind groups that use it).
    _scratch: Option<Arc<wgpu::Buffer>>,
}

/// The median of some timings (the upper one of the middle two for an even count).
pub fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

impl Trial {
    pub fn new(ctx: &GpuContext, shape: ShapeKey) -> Result<Self, Error> {
        let ShapeKey { m, k, n, epilogue } = shape;
        let mut rng = SplitMix64::new((m * 31 + k * 17 + n) as u64);
        let a = Tensor2D::random(m, k, 1.0, &mut rng);
        let b = Tensor2D::random(k, n, 1.0, &mut rng);
        let bias = Tensor2D::random(1, n, 1.0, &mut rng);
        let mut expected = Tensor2D::zeros(m, n);
        crate::cpu_matmul::reference(a.data(), b.data(), expected.data_mut(), m, k, n);
        if epilogue != Epilogue::None {
            for row in expected.data_mut().chunks_exact_mut(n) {
                for (x, b) in row.iter_mut().zip(bias.data()) {
                    *x += b;
                    if epilogue == Epilogue::BiasRelu {
                        *x = x.max(0.0);
                    }
                }
            }
        }
        // Sums of k products of values in [-1, 1], added in another order: the error of each
        // addition is at most one rounding of the partial sum (at most k in size).
        let tolerance = 4.0 * f32::EPSILON * k as f32 * (k as f32).sqrt().max(1.0);
        Ok(Trial {
            shape,
            a: GpuTensor::upload(ctx, "tune a", &a)?,
            b: GpuTensor::upload(ctx, "tune b", &b)?,
            bias: (epilogue != Epilogue::None)
                .then(|| GpuTensor::upload(ctx, "tune bias", &bias))
                .transpose()?,
            c: GpuTensor::zeros(ctx, "tune c", m, n)?,
            expected,
            tolerance,
        })
    }

    /// Compiles `t` for this shape and compares one run with the CPU's answer: `Ok(Err(why))`
    /// when the candidate cannot run here or computes something else.
    pub fn check(&self, ctx: &GpuContext, t: &Tuning) -> Result<Result<Prepared, String>, Error> {
        self.check_kernel(ctx, &LinearKernel::Tiled(*t))
    }

    /// [`Trial::check`] for any kernel, split-K included.
    pub fn check_kernel(
        &self,
        ctx: &GpuContext,
        kernel: &LinearKernel,
    ) -> Result<Result<Prepared, String>, Error> {
        let ShapeKey { m, k, n, .. } = self.shape;
        let scratch = match kernel.scratch_floats() {
            0 => None,
            floats => match ctx.storage_buffer("split-K partial products", (floats * 4) as u64) {
                Ok(b) => Some(Arc::new(b)),
                Err(e) => return Ok(Err(e.to_string())),
            },
        };
        let buffers = LinearBuffers {
            a: &self.a.buffer,
            b: &self.b.buffer,
            bias: self.bias.as_ref().map(|v| &v.buffer),
            c: &self.c.buffer,
            scratch: scratch.as_deref(),
        };
        let dispatches = match kernel.dispatches(ctx, (m, k, n), &buffers) {
            Ok(d) => d,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let prepared = Prepared {
            dispatches,
            _scratch: scratch,
        };
        // NaN everywhere first: an element the kernel never writes cannot pass for a result.
        let poison = vec![f32::NAN; m * n];
        ctx.queue
            .write_buffer(&self.c.buffer, 0, bytemuck::cast_slice(&poison));
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        prepared.record(&mut encoder, 1);
        ctx.queue.submit([encoder.finish()]);
        let got = self.c.download(ctx)?;
        let worst = got
            .data()
            .iter()
            .zip(self.expected.data())
            .map(|(g, e)| (g - e).abs())
            .fold(
                0.0f32,
                |w, d| if d.is_nan() { f32::INFINITY } else { w.max(d) },
            );
        Ok(if worst <= self.tolerance {
            Ok(prepared)
        } else {
            Err(format!(
                "differs from the CPU by up to {worst} (tolerance {})",
                self.tolerance
            ))
        })
    }

    /// Seconds per product in one timed submission of enough dispatches to keep the GPU busy
    /// for a while (about 10 GFLOP, between 1 and 256 dispatches): long against the timer's
    /// resolution, and short gaps between submissions, so that the clocks stay up.
    pub fn time_once(&self, ctx: &GpuContext, p: &Prepared) -> Result<f64, Error> {
        let ShapeKey { m, k, n, .. } = self.shape;
        let flops = 2.0 * m as f64 * k as f64 * n as f64;
        let repeats = (1e10 / flops).ceil().clamp(1.0, 256.0) as usize;
        self.time_repeats(ctx, p, repeats)
    }

    fn time_repeats(&self, ctx: &GpuContext, p: &Prepared, repeats: usize) -> Result<f64, Error> {
        let run = ctx.time_commands(|enc| p.record(enc, repeats))?;
        Ok(run.time.as_secs_f64() / repeats as f64)
    }

    /// Keeps the GPU busy with `p` until `at_least` has passed: after compiling, it has been
    /// idle, and its clocks need a moment to come back up. The submissions grow until each
    /// one lasts a good part of that time, so that the GPU hardly waits between them.
    pub fn warm_up(
        &self,
        ctx: &GpuContext,
        p: &Prepared,
        at_least: std::time::Duration,
    ) -> Result<(), Error> {
        let start = std::time::Instant::now();
        let mut repeats = 1;
        while start.elapsed() < at_least {
            let per_product = self.time_repeats(ctx, p, repeats)?;
            let quarter = at_least.as_secs_f64() / 4.0;
            if per_product * (repeats as f64) < quarter {
                repeats = (repeats * 4).min(4096);
            }
        }
        Ok(())
    }
}

impl Prepared {
    /// Dispatches in one pass: wgpu makes each one see the writes of the ones before it.
    fn record(&self, encoder: &mut wgpu::CommandEncoder, repeats: usize) {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        for _ in 0..repeats {
            for d in &self.dispatches {
                d.record(&mut pass);
            }
        }
    }
}
