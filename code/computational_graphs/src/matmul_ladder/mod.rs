//! The matrix-multiply ladder: WGSL kernels for C = A · B, each a step up from the last.
//!
//! naive → coalesced → shared-memory tiled → register-blocked → vectorised (vec4) loads →
//! k-step 16 with vec4 tile reads and shapes as override constants → register prefetch →
//! without runtime checks where the shape is tiled exactly. Beyond those eight portable rungs
//! ([`Rung::ALL`]), three more ([`Rung::BEYOND`]): the k-step-16 kernel without runtime checks,
//! double-buffered tiles, and A shared between lanes by subgroup shuffles (only on adapters with
//! `wgpu::Features::SUBGROUP` and one subgroup size).
//! The first five take the bindings (dims, a, b, c); the tuned ones (a, b, c) and their shapes
//! as `override` constants. All are tested against the CPU on odd shapes.

pub mod tuned;
pub mod unrolled;

use std::sync::Arc;

use gpu_context::wgpu;
use gpu_context::{GpuContext, workgroups_for};

use crate::Error;
use crate::tensor::{GpuTensor, Tensor2D};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rung {
    Naive,
    Coalesced,
    Tiled,
    RegisterBlocked,
    Vec4,
    /// k-step 16, vec4 reads of both tiles, shapes as override constants.
    Bk16,
    /// [`Rung::Bk16`] plus register prefetch of the next tiles.
    Prefetch,
    /// [`Rung::Prefetch`] with no edge tests and no wgpu runtime checks when the shape is an
    /// exact multiple of the block (the checked kernel otherwise).
    Unchecked,
    /// [`Rung::Bk16`] without edge tests and runtime checks on exact shapes: what
    /// [`Rung::Unchecked`] is to [`Rung::Prefetch`].
    Bk16Unchecked,
    /// [`Rung::Unchecked`] with two sets of tiles and one barrier per k-step.
    DoubleBuffered,
    /// [`Rung::DoubleBuffered`] with A kept in the lanes' registers and passed between them by
    /// `subgroupShuffle` instead of a workgroup-memory tile.
    SubgroupShuffle,
}

impl Rung {
    pub const ALL: [Rung; 8] = [
        Rung::Naive,
        Rung::Coalesced,
        Rung::Tiled,
        Rung::RegisterBlocked,
        Rung::Vec4,
        Rung::Bk16,
        Rung::Prefetch,
        Rung::Unchecked,
    ];

    /// The rungs past [`Rung::ALL`]: one unchecked twin to separate the prefetch from the checks,
    /// and two further steps (the last one needs subgroup operations).
    pub const BEYOND: [Rung; 3] = [
        Rung::Bk16Unchecked,
        Rung::DoubleBuffered,
        Rung::SubgroupShuffle,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rung::Naive => "naive",
            Rung::Coalesced => "coalesced",
            Rung::Tiled => "tiled 16x16",
            Rung::RegisterBlocked => "register-blocked 4x4",
            Rung::Vec4 => "vec4 8x8",
            Rung::Bk16 => "bk16 vec4-tiles 8x8",
            Rung::Prefetch => "prefetch 8x8",
            Rung::Unchecked => "prefetch unchecked 8x8",
            Rung::Bk16Unchecked => "bk16 unchecked 8x8",
            Rung::DoubleBuffered => "double-buffered unchecked 8x8",
            Rung::SubgroupShuffle => "subgroup-shuffle unchecked 8x8",
        }
    }

    /// The generated kernel of a tuned rung for this shape (None for the first five rungs).
    pub fn tuning(self, m: usize, k: usize, n: usize) -> Option<tuned::Tuning> {
        let base = tuned::Tuning::LARGE.for_shape(m, k, n);
        match self {
            Rung::Bk16 => Some(tuned::Tuning {
                prefetch: false,
                exact: false,
                ..base
            }),
            Rung::Bk16Unchecked => Some(tuned::Tuning {
                prefetch: false,
                ..base
            }),
            Rung::Prefetch => Some(tuned::Tuning {
                exact: false,
                ..base
            }),
            Rung::Unchecked | Rung::DoubleBuffered | Rung::SubgroupShuffle => Some(base),
            _ => None,
        }
    }

    /// How a tuned rung moves its tiles on this device, or why it cannot run here: two padded
    /// tile sets need 33 KiB of workgroup memory, so a device with less gets unpadded ones; the
    /// subgroup rung needs subgroup operations and one known subgroup size.
    pub fn pipelining(self, ctx: &GpuContext) -> Result<tuned::Pipelining, Error> {
        let base = tuned::Tuning::LARGE;
        let limit = ctx.device.limits().max_compute_workgroup_storage_size;
        let double = |p: tuned::Pipelining| {
            let p = tuned::Pipelining {
                double_buffer: true,
                two_steps_per_trip: true,
                ..p
            };
            let padded = base.workgroup_bytes(&p);
            if padded <= limit {
                return Ok(p);
            }
            let p = tuned::Pipelining {
                unpadded_a: true,
                ..p
            };
            let bytes = base.workgroup_bytes(&p);
            if bytes <= limit {
                Ok(p)
            } else {
                Err(Error::AdapterLacks {
                    kernel: self.name(),
                    detail: format!(
                        "two tile sets need {bytes} bytes of workgroup memory and this device \
                         offers {limit}; use the single-buffered rung"
                    ),
                })
            }
        };
        match self {
            Rung::DoubleBuffered => double(tuned::Pipelining::default()),
            Rung::SubgroupShuffle => double(tuned::Pipelining {
                subgroup: Some(subgroup_size(ctx, self.name())?),
                ..Default::default()
            }),
            _ => Ok(tuned::Pipelining::default()),
        }
    }

    pub fn source(self) -> Result<String, Error> {
        let body = match self {
            Rung::Naive => include_str!("wgsl/naive.wgsl"),
            Rung::Coalesced => include_str!("wgsl/coalesced.wgsl"),
            Rung::Tiled => include_str!("wgsl/tiled.wgsl"),
            Rung::Bk16 | Rung::Prefetch | Rung::Unchecked | Rung::Bk16Unchecked => {
                return tuned::source(&tuned::Tuning::LARGE);
            }
            Rung::DoubleBuffered | Rung::SubgroupShuffle => {
                return Err(Error::Unsupported {
                    kernel: self.name(),
                    detail: "its source depends on the device: use Rung::pipelining and \
                             tuned::source_with"
                        .into(),
                });
            }
            Rung::RegisterBlocked | Rung::Vec4 => {
                return Ok(format!(
                    "{}{}",
                    include_str!("../ops/wgsl/common.wgsl"),
                    unrolled::source(&self.blocking())?
                ));
            }
        };
        Ok(format!("{}{body}", include_str!("../ops/wgsl/common.wgsl")))
    }

    /// How the generated register-blocked kernels split the work.
    fn blocking(self) -> unrolled::Blocking {
        match self {
            Rung::Vec4 => unrolled::Blocking {
                rows: 8,
                cols: 2,
                bk: 8,
                vec4: true,
            },
            _ => unrolled::Blocking {
                rows: 4,
                cols: 4,
                bk: 16,
                vec4: false,
            },
        }
    }

    /// Rows and columns of C that one workgroup covers.
    fn block(self) -> (u32, u32) {
        match self {
            Rung::Naive | Rung::Coalesced | Rung::Tiled => (16, 16),
            Rung::RegisterBlocked | Rung::Vec4 => self.blocking().block(),
            Rung::Bk16
            | Rung::Prefetch
            | Rung::Unchecked
            | Rung::Bk16Unchecked
            | Rung::DoubleBuffered
            | Rung::SubgroupShuffle => tuned::Tuning::LARGE.block(),
        }
    }

    // ANCHOR: check
    /// The workgroup grid for an m×k · k×n product, or an error saying why this kernel cannot
    /// take the shape. Called before any buffer exists or anything is dispatched.
    pub fn check(self, ctx: &GpuContext, m: usize, k: usize, n: usize) -> Result<[u32; 3], Error> {
        let fail = |detail: String| Error::Unsupported {
            kernel: self.name(),
            detail,
        };
        if self == Rung::Vec4 && (!k.is_multiple_of(4) || !n.is_multiple_of(4)) {
            return Err(fail(format!(
                "it loads 4 floats at a time along k and n, so both must be multiples of 4 \
                 (got k = {k}, n = {n}); pad the matrices or use the register-blocked kernel"
            )));
        }
        if m == 0 || k == 0 || n == 0 {
            return Err(fail(format!(
                "{m}×{k} · {k}×{n} has a zero-sized dimension; every dimension must be at least 1"
            )));
        }
        for (what, elems) in [("A", m * k), ("B", k * n), ("C", m * n)] {
            ctx.check_buffer_size(what, (elems * 4) as u64)?;
        }
        let (m32, n32) = match (u32::try_from(m), u32::try_from(n)) {
            (Ok(m), Ok(n)) => (m, n),
            _ => return Err(fail(format!("{m}×{n} does not fit 32-bit indices"))),
        };
        let (bm, bn) = self.block();
        let (x, y) = if self == Rung::Naive {
            (workgroups_for(m32, bm), workgroups_for(n32, bn))
        } else {
            (workgroups_for(n32, bn), workgroups_for(m32, bm))
        };
        let max = ctx.device.limits().max_compute_workgroups_per_dimension;
        if x > max || y > max {
            return Err(fail(format!(
                "{m}×{n} needs {x}×{y} workgroups; this device allows {max} per dimension"
            )));
        }
        Ok([x.max(1), y.max(1), 1])
    }
    // ANCHOR_END: check
}

/// A product set up on the GPU: buffers uploaded, pipeline compiled, bind group made.
pub struct PreparedMatmul {
    pub m: usize,
    pub n: usize,
    pipeline: Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    workgroups: [u32; 3],
    c: GpuTensor,
}

impl PreparedMatmul {
    pub fn new(ctx: &GpuContext, rung: Rung, a: &Tensor2D, b: &Tensor2D) -> Result<Self, Error> {
        let ((m, k), (k2, n)) = (a.shape(), b.shape());
        if k != k2 {
            return Err(Error::Shape {
                op: "matmul",
                detail: format!("A is {m}×{k} and B is {k2}×{n}: A's columns must equal B's rows"),
            });
        }
        let workgroups = rung.check(ctx, m, k, n)?;
        let pipelining = rung.pipelining(ctx)?;
        let a = GpuTensor::upload(ctx, "a", a)?;
        let b = GpuTensor::upload(ctx, "b", b)?;
        let c = GpuTensor::zeros(ctx, "c", m, n)?;
        let (pipeline, bind_group) = match rung.tuning(m, k, n) {
            Some(t) => {
                let pipeline = tuned_pipeline_with(ctx, rung.name(), &t, &pipelining, m, k, n)?;
                let bind_group = ctx.bind_buffers(&pipeline, &[&a.buffer, &b.buffer, &c.buffer]);
                (pipeline, bind_group)
            }
            None => {
                let dims = ctx.upload("dims", &[m as u32, k as u32, n as u32, 0])?;
                let pipeline = ctx.cached_pipeline(rung.name(), &rung.source()?, "main")?;
                let bind_group =
                    ctx.bind_buffers(&pipeline, &[&dims, &a.buffer, &b.buffer, &c.buffer]);
                (pipeline, bind_group)
            }
        };
        Ok(Self {
            m,
            n,
            pipeline,
            bind_group,
            workgroups,
            c,
        })
    }

    /// A product through one tuned kernel, with the epilogue's bias when it has one
    /// (`t` is used as given: pick it with [`tuned::Tuning::for_shape`]).
    pub fn tuned(
        ctx: &GpuContext,
        t: &tuned::Tuning,
        a: &Tensor2D,
        b: &Tensor2D,
        bias: Option<&Tensor2D>,
    ) -> Result<Self, Error> {
        Self::tuned_with(ctx, t, &tuned::Pipelining::default(), a, b, bias)
    }

    /// [`PreparedMatmul::tuned`] with the ladder's pipelining `p` (checked against the device's
    /// workgroup memory first).
    pub fn tuned_with(
        ctx: &GpuContext,
        t: &tuned::Tuning,
        p: &tuned::Pipelining,
        a: &Tensor2D,
        b: &Tensor2D,
        bias: Option<&Tensor2D>,
    ) -> Result<Self, Error> {
        let limit = ctx.device.limits().max_compute_workgroup_storage_size;
        if t.workgroup_bytes(p) > limit {
            return Err(Error::AdapterLacks {
                kernel: "tuned matmul",
                detail: format!(
                    "its tiles need {} bytes of workgroup memory and this device offers {limit}; \
                     choose smaller blocks or one tile set",
                    t.workgroup_bytes(p)
                ),
            });
        }
        let ((m, k), (k2, n)) = (a.shape(), b.shape());
        if k != k2 || bias.is_some_and(|v| v.shape() != (1, n)) || bias.is_some() != t.has_bias() {
            return Err(Error::Shape {
                op: "tuned matmul",
                detail: format!(
                    "A is {m}×{k}, B is {k2}×{n}, bias {:?}: A's columns must equal B's rows, and \
                     the bias (given exactly when the kernel adds one) must be 1×{n}",
                    bias.map(Tensor2D::shape)
                ),
            });
        }
        let workgroups = tuned_grid(ctx, t, m, k, n)?;
        let a = GpuTensor::upload(ctx, "a", a)?;
        let b = GpuTensor::upload(ctx, "b", b)?;
        let bias = bias
            .map(|v| GpuTensor::upload(ctx, "bias", v))
            .transpose()?;
        let c = GpuTensor::zeros(ctx, "c", m, n)?;
        let pipeline = tuned_pipeline_with(ctx, "tuned", t, p, m, k, n)?;
        let mut buffers = vec![&a.buffer, &b.buffer];
        buffers.extend(bias.as_ref().map(|v| &v.buffer));
        buffers.push(&c.buffer);
        let bind_group = ctx.bind_buffers(&pipeline, &buffers);
        Ok(Self {
            m,
            n,
            pipeline,
            bind_group,
            workgroups,
            c,
        })
    }

    /// Records `repeats` dispatches of the product into one pass.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, repeats: usize) {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        for _ in 0..repeats {
            let [x, y, z] = self.workgroups;
            pass.dispatch_workgroups(x, y, z);
        }
    }

    pub fn result(&self, ctx: &GpuContext) -> Result<Tensor2D, Error> {
        self.c.download(ctx)
    }

    /// C on the device, for a caller that reads it back its own way (a web page awaits it).
    pub fn output(&self) -> &GpuTensor {
        &self.c
    }
}

/// The grid of a tuned kernel, or why it cannot take the shape.
pub fn tuned_grid(
    ctx: &GpuContext,
    t: &tuned::Tuning,
    m: usize,
    k: usize,
    n: usize,
) -> Result<[u32; 3], Error> {
    let fail = |detail: String| Error::Unsupported {
        kernel: "tuned matmul",
        detail,
    };
    if m == 0 || k == 0 || n == 0 {
        return Err(fail(format!(
            "{m}×{k} · {k}×{n} has a zero-sized dimension; every dimension must be at least 1"
        )));
    }
    if t.aligned && !n.is_multiple_of(4) {
        return Err(fail(format!("the vec4 variant needs n % 4 == 0 (n = {n})")));
    }
    for (what, elems) in [("A", m * k), ("B", k * n), ("C", m * n)] {
        ctx.check_buffer_size(what, (elems * 4) as u64)?;
    }
    let (bm, bn) = t.block();
    let x = n.div_ceil(bn as usize);
    let y = m.div_ceil(bm as usize);
    let max = ctx.device.limits().max_compute_workgroups_per_dimension as usize;
    if x > max
        || y > max
        || m * k >= u32::MAX as usize
        || k * n >= u32::MAX as usize
        || m * n >= u32::MAX as usize
    {
        return Err(fail(format!(
            "{m}×{k}×{n} is too large for 32-bit indices or the grid"
        )));
    }
    Ok([x as u32, y as u32, 1])
}

/// The pipeline of a tuned kernel for one shape: M, N and K go in as override constants, and
/// the module drops wgpu's runtime checks only when the kernel proves its own indexing.
pub(crate) fn tuned_pipeline(
    ctx: &GpuContext,
    label: &str,
    t: &tuned::Tuning,
    m: usize,
    k: usize,
    n: usize,
) -> Result<Arc<wgpu::ComputePipeline>, Error> {
    tuned_pipeline_with(ctx, label, t, &tuned::Pipelining::default(), m, k, n)
}

// ANCHOR: tuned_pipeline_with
/// [`tuned_pipeline`] for a kernel with the ladder's pipelining `p`.
pub(crate) fn tuned_pipeline_with(
    ctx: &GpuContext,
    label: &str,
    t: &tuned::Tuning,
    p: &tuned::Pipelining,
    m: usize,
    k: usize,
    n: usize,
) -> Result<Arc<wgpu::ComputePipeline>, Error> {
    let constants = [("M", m as f64), ("N", n as f64), ("K", k as f64)];
    let unchecked = t.is_in_bounds_with(p) && t.fits_exactly(m, k, n);
    let spec = gpu_context::Specialisation {
        constants: &constants,
        unchecked,
    };
    // SAFETY: `unchecked` is set only for an exact kernel on a shape it tiles exactly, whose
    // indices stay inside buffers of exactly m·k, k·n, n and m·n floats (the proof is at
    // `Tuning::is_in_bounds_with`); every caller, all of them in this crate, binds buffers of
    // those sizes.
    Ok(unsafe { ctx.cached_specialised(label, &tuned::source_with(t, p)?, "main", spec)? })
}
// ANCHOR_END: tuned_pipeline_with

/// The one subgroup size of this device, or why a kernel generated for one size cannot run.
pub fn subgroup_size(ctx: &GpuContext, kernel: &'static str) -> Result<u32, Error> {
    let info = ctx.adapter.get_info();
    if !ctx.device.features().contains(wgpu::Features::SUBGROUP) {
        return Err(Error::AdapterLacks {
            kernel,
            detail: format!(
                "{} offers no subgroup operations (wgpu::Features::SUBGROUP), or the device was \
                 opened without them: open it with Requirements::optional_features = SUBGROUP",
                info.name
            ),
        });
    }
    let (min, max, name) = (info.subgroup_min_size, info.subgroup_max_size, &info.name);
    if min != max {
        return Err(Error::AdapterLacks {
            kernel,
            detail: format!(
                "{name} may run subgroups of {min} to {max} lanes, and wgpu 30 cannot ask for one \
                 size (WebGPU's subgroup-size-control is not implemented in wgpu yet, \
                 gfx-rs/wgpu#10049); the kernel shares values between lanes by their number, so \
                 it needs one known size: run it on an adapter that reports a single size"
            ),
        });
    }
    let base = tuned::Tuning::LARGE;
    base.subgroup_fit(min)
        .map_err(|detail| Error::AdapterLacks { kernel, detail })?;
    Ok(min)
}

/// C = A · B with one rung of the ladder.
pub fn matmul(ctx: &GpuContext, rung: Rung, a: &Tensor2D, b: &Tensor2D) -> Result<Tensor2D, Error> {
    let prepared = PreparedMatmul::new(ctx, rung, a, b)?;
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    prepared.record(&mut encoder, 1);
    ctx.queue.submit([encoder.finish()]);
    prepared.result(ctx)
}
