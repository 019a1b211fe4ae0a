//! Split-K: several workgroups share one block of C, each multiplying one slice of k, and a
//! second dispatch adds the slices up (in a fixed order, with no atomics) and applies the
//! epilogue.
//!
//! A product with few blocks of C (a small or a tall-skinny shape: k large against m·n) leaves
//! most of a large GPU idle: 64×64 blocks of a 256² product are 16 workgroups for a GPU with
//! more than a hundred multiprocessors. Cutting k into S slices gives S times as many
//! workgroups, for the price of one more dispatch and S partial blocks written and read back.

use std::sync::Arc;

use gpu_context::{GpuContext, wgpu};

use super::candidates::KernelConfig;
use crate::Error;
use crate::compiler::specialise::preprocess;
use crate::matmul_ladder::tuned::{Epilogue, Tuning};
use crate::matmul_ladder::{tuned_grid, tuned_pipeline};
use crate::ops::gpu::Dispatch;

const PARTIAL_TEMPLATE: &str = include_str!("split_k_partial.wgsl");
const REDUCE_TEMPLATE: &str = include_str!("split_k_reduce.wgsl");
/// Invocations per workgroup of the reduction (the template's `@workgroup_size`).
const REDUCE_THREADS: usize = 256;

// ANCHOR: linear_kernel
/// What computes one Linear: the ladder's tiled kernel in one dispatch, or split-K in two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LinearKernel {
    Tiled(Tuning),
    SplitK(SplitK),
}
// ANCHOR_END: linear_kernel

/// A split-K kernel for one m×k · k×n product: the configuration's workgroup and block, over
/// `config.split_k` slices of k.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitK {
    pub config: KernelConfig,
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub epilogue: Epilogue,
}

/// The buffers a Linear reads and writes; `bias` is there unless the epilogue is `None`.
pub struct LinearBuffers<'a> {
    pub a: &'a wgpu::Buffer,
    pub b: &'a wgpu::Buffer,
    pub bias: Option<&'a wgpu::Buffer>,
    pub c: &'a wgpu::Buffer,
    /// Scratch space of at least [`LinearKernel::scratch_floats`] floats (split-K only).
    pub scratch: Option<&'a wgpu::Buffer>,
}

impl LinearKernel {
    /// Floats of scratch space the kernel needs between its dispatches.
    pub fn scratch_floats(&self) -> usize {
        match self {
            LinearKernel::Tiled(_) => 0,
            LinearKernel::SplitK(s) => s.slices() * s.m * s.n,
        }
    }

    /// The dispatches that compute `c = epilogue(a · b)`, in the order they must run.
    pub fn dispatches(
        &self,
        ctx: &GpuContext,
        (m, k, n): (usize, usize, usize),
        buffers: &LinearBuffers<'_>,
    ) -> Result<Vec<Dispatch>, Error> {
        let mut bound = vec![buffers.a, buffers.b];
        match self {
            LinearKernel::Tiled(t) => {
                let workgroups = tuned_grid(ctx, t, m, k, n)?;
                // The program's buffers hold exactly these shapes (see tuned_pipeline).
                let pipeline = tuned_pipeline(ctx, "tuned linear", t, m, k, n)?;
                bound.extend(buffers.bias);
                bound.push(buffers.c);
                let bind_group = ctx.bind_buffers(&pipeline, &bound);
                Ok(vec![Dispatch {
                    label: "tuned linear".into(),
                    pipeline,
                    bind_group,
                    workgroups,
                }])
            }
            LinearKernel::SplitK(s) => {
                let scratch = buffers.scratch.ok_or_else(|| Error::Unsupported {
                    kernel: "split-K linear",
                    detail: "no scratch buffer for the partial products".into(),
                })?;
                let [partial_grid, reduce_grid] = s.grids(ctx)?;
                let (partial, reduce) = s.pipelines(ctx)?;
                bound.push(scratch);
                let partial_group = ctx.bind_buffers(&partial, &bound);
                let mut reduce_bound = vec![scratch];
                reduce_bound.extend(buffers.bias);
                reduce_bound.push(buffers.c);
                let reduce_group = ctx.bind_buffers(&reduce, &reduce_bound);
                Ok(vec![
                    Dispatch {
                        label: "split-K partial products".into(),
                        pipeline: partial,
                        bind_group: partial_group,
                        workgroups: partial_grid,
                    },
                    Dispatch {
                        label: "split-K reduction".into(),
                        pipeline: reduce,
                        bind_group: reduce_group,
                        workgroups: reduce_grid,
                    },
                ])
            }
        }
    }
}

impl KernelConfig {
    /// The kernel for an m×k · k×n product: split-K when the configuration asks for slices,
    /// else the ladder's tiled kernel ([`KernelConfig::tuning`]).
    pub fn kernel(self, m: usize, k: usize, n: usize, epilogue: Epilogue) -> LinearKernel {
        if self.split_k > 1 {
            LinearKernel::SplitK(SplitK {
                config: self,
                m,
                k,
                n,
                epilogue,
            })
        } else {
            LinearKernel::Tiled(self.tuning(m, k, n, epilogue))
        }
    }
}

impl SplitK {
    /// Steps of k per slice: k cut into `split_k` nearly equal parts.
    pub fn slice_len(&self) -> usize {
        self.k.div_ceil(self.config.split_k.max(1) as usize)
    }

    /// Slices that hold at least one step of k (fewer than asked for when k is small).
    pub fn slices(&self) -> usize {
        self.k.div_ceil(self.slice_len())
    }

    /// The grids of the two dispatches, checked against the device's limits.
    pub fn grids(&self, ctx: &GpuContext) -> Result<[[u32; 3]; 2], Error> {
        let fail = |detail: String| Error::Unsupported {
            kernel: "split-K linear",
            detail,
        };
        let SplitK { m, k, n, .. } = *self;
        if m == 0 || k == 0 || n == 0 {
            return Err(fail(format!(
                "{m}×{k} · {k}×{n} has a zero-sized dimension; every dimension must be at least 1"
            )));
        }
        let scratch = self.slices() * m * n;
        for (what, elems) in [("A", m * k), ("B", k * n), ("partial products", scratch)] {
            ctx.check_buffer_size(what, (elems * 4) as u64)?;
        }
        let (bm, bn) = self.config.block();
        let partial = [
            n.div_ceil(bn as usize),
            m.div_ceil(bm as usize),
            self.slices(),
        ];
        let reduce = [(m * n).div_ceil(REDUCE_THREADS), 1, 1];
        let max = ctx.device.limits().max_compute_workgroups_per_dimension as usize;
        if partial.iter().chain(&reduce).any(|&g| g > max) || scratch >= u32::MAX as usize {
            return Err(fail(format!(
                "{m}×{k} · {k}×{n} in {} slices needs more workgroups than the device allows",
                self.slices()
            )));
        }
        let as_u32 = |g: [usize; 3]| g.map(|x| x as u32);
        Ok([as_u32(partial), as_u32(reduce)])
    }

    /// The WGSL of both passes, shapes written in.
    pub fn sources(&self) -> Result<(String, String), Error> {
        let c = self.config;
        let (bm, bn) = c.block();
        let cols = 4 * c.vec_cols;
        let number = |x: usize| x.to_string();
        let partial = PARTIAL_TEMPLATE
            .replace("{M}", &number(self.m))
            .replace("{N}", &number(self.n))
            .replace("{K}", &number(self.k))
            .replace("{TX}", &c.threads.0.to_string())
            .replace("{TY}", &c.threads.1.to_string())
            .replace("{RC}", &(c.rows * cols).to_string())
            .replace("{R}", &c.rows.to_string())
            .replace("{C}", &cols.to_string())
            .replace("{BK}", &c.bk.to_string())
            .replace("{SLICE}", &number(self.slice_len()))
            .replace("{BM}", &bm.to_string())
            .replace("{BN}", &bn.to_string())
            .replace("{TILE_A}", &(c.bk * bm).to_string())
            .replace("{TILE_B}", &(c.bk * bn).to_string());
        let defines: &[&str] = match self.epilogue {
            Epilogue::None => &[],
            Epilogue::Bias => &["BIAS"],
            Epilogue::BiasRelu => &["BIAS", "RELU"],
        };
        let reduce = preprocess(REDUCE_TEMPLATE, defines)
            .map_err(|e| Error::Unsupported {
                kernel: "split-K reduction",
                detail: e.to_string(),
            })?
            .replace("{MN}", &number(self.m * self.n))
            .replace("{N}", &number(self.n))
            .replace("{SLICES}", &number(self.slices()));
        Ok((partial, reduce))
    }

    /// Both pipelines, from the context's cache (identical sources compile once).
    pub fn pipelines(
        &self,
        ctx: &GpuContext,
    ) -> Result<(Arc<wgpu::ComputePipeline>, Arc<wgpu::ComputePipeline>), Error> {
        let (partial, reduce) = self.sources()?;
        Ok((
            ctx.cached_pipeline("split-K partial products", &partial, "main")?,
            ctx.cached_pipeline("split-K reduction", &reduce, "main")?,
        ))
    }
}
