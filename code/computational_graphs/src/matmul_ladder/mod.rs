//! The matrix-multiply ladder: five WGSL kernels for C = A · B, each a step up from the last.
//!
//! naive → coalesced → shared-memory tiled → register-blocked → vectorised (vec4) loads.
//! All take the same bindings (dims, a, b, c) and are tested against the CPU on odd shapes.

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
}

impl Rung {
    pub const ALL: [Rung; 5] = [
        Rung::Naive,
        Rung::Coalesced,
        Rung::Tiled,
        Rung::RegisterBlocked,
        Rung::Vec4,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rung::Naive => "naive",
            Rung::Coalesced => "coalesced",
            Rung::Tiled => "tiled 16x16",
            Rung::RegisterBlocked => "register-blocked 4x4",
            Rung::Vec4 => "vec4 8x8",
        }
    }

    pub fn source(self) -> String {
        let body = match self {
            Rung::Naive => include_str!("wgsl/naive.wgsl"),
            Rung::Coalesced => include_str!("wgsl/coalesced.wgsl"),
            Rung::Tiled => include_str!("wgsl/tiled.wgsl"),
            Rung::RegisterBlocked | Rung::Vec4 => {
                return format!(
                    "{}{}",
                    include_str!("../ops/wgsl/common.wgsl"),
                    unrolled::source(&self.blocking())
                );
            }
        };
        format!("{}{body}", include_str!("../ops/wgsl/common.wgsl"))
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
        let dims = ctx.upload("dims", &[m as u32, k as u32, n as u32, 0])?;
        let a = GpuTensor::upload(ctx, "a", a)?;
        let b = GpuTensor::upload(ctx, "b", b)?;
        let c = GpuTensor::zeros(ctx, "c", m, n)?;
        let pipeline = ctx.cached_pipeline(rung.name(), &rung.source(), "main")?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&dims, &a.buffer, &b.buffer, &c.buffer]);
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
}

/// C = A · B with one rung of the ladder.
pub fn matmul(ctx: &GpuContext, rung: Rung, a: &Tensor2D, b: &Tensor2D) -> Result<Tensor2D, Error> {
    let prepared = PreparedMatmul::new(ctx, rung, a, b)?;
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    prepared.record(&mut encoder, 1);
    ctx.queue.submit([encoder.finish()]);
    prepared.result(ctx)
}
