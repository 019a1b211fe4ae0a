//! The training step's own kernels, and how one dispatch of each is set up. The forward pass
//! reuses the graph crate's Linear and Linear + ReLU kernels ([`computational_graphs::ops::gpu`]).

use std::sync::Arc;

use computational_graphs::Error;
use computational_graphs::ops::gpu::{Dispatch, grid_1d};
use gpu_context::{GpuContext, wgpu, workgroups_for};

/// The tree reductions of the graph crate's row kernels (softmax), shared by three kernels here.
const REDUCE: &str = computational_graphs::ops::gpu::REDUCE_WGSL;

/// Kernels that only training needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainingKernel {
    /// `C = op(A) · op(B)`, either operand read transposed by index.
    MatmulTransposed,
    /// `C = Aᵀ · B` summed over a long batch, one workgroup per element of `C`.
    BatchSum,
    /// Softmax + cross-entropy: per-sample loss and the logits' gradient, one workgroup a row.
    SoftmaxCrossEntropy,
    /// The mean of the per-sample losses, in one workgroup.
    LossMean,
    ReluBackward,
    Sgd,
}

impl TrainingKernel {
    pub fn name(self) -> &'static str {
        match self {
            Self::MatmulTransposed => "matmul_transposed",
            Self::BatchSum => "batch_sum",
            Self::SoftmaxCrossEntropy => "softmax_cross_entropy",
            Self::LossMean => "loss_mean",
            Self::ReluBackward => "relu_backward",
            Self::Sgd => "sgd",
        }
    }

    pub fn source(self) -> String {
        match self {
            Self::MatmulTransposed => include_str!("wgsl/matmul_t.wgsl").into(),
            Self::BatchSum => format!("{REDUCE}{}", include_str!("wgsl/batch_sum.wgsl")),
            Self::SoftmaxCrossEntropy => {
                format!("{REDUCE}{}", include_str!("wgsl/softmax_ce.wgsl"))
            }
            Self::LossMean => format!("{REDUCE}{}", include_str!("wgsl/loss_mean.wgsl")),
            Self::ReluBackward => include_str!("wgsl/relu_backward.wgsl").into(),
            Self::Sgd => include_str!("wgsl/sgd.wgsl").into(),
        }
    }

    fn pipeline(self, ctx: &GpuContext) -> Result<Arc<wgpu::ComputePipeline>, Error> {
        Ok(ctx.cached_pipeline(self.name(), &self.source(), "main")?)
    }
}

/// Which operands of a [`matmul`] are read transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transpose {
    /// `A` is stored k×m: `C = Aᵀ · B` (the weights' gradient `Xᵀ · dY`, the bias's `1ᵀ · dY`).
    A,
    /// `B` is stored n×k: `C = A · Bᵀ` (the input's gradient `dY · Wᵀ`).
    B,
}

/// One dispatch of `c (m×n) = op(a) · op(b)` with an inner dimension `k`.
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    ctx: &GpuContext,
    label: &str,
    (m, k, n): (usize, usize, usize),
    transpose: Transpose,
    a: &wgpu::Buffer,
    b: &wgpu::Buffer,
    c: &wgpu::Buffer,
) -> Result<Dispatch, Error> {
    let flags = match transpose {
        Transpose::A => 1,
        Transpose::B => 2,
    };
    let kernel = TrainingKernel::MatmulTransposed;
    let (m32, n32) = (index(kernel, m)?, index(kernel, n)?);
    let shape = ctx.upload(label, &[m32, index(kernel, k)?, n32, flags])?;
    let workgroups = [workgroups_for(n32, 16), workgroups_for(m32, 16), 1];
    within_limits(ctx, kernel, workgroups)?;
    dispatch(ctx, kernel, label, &[&shape, a, b, c], workgroups)
}

// ANCHOR: reductions
/// How the backward pass sums the weights' and biases' gradients over the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchReduction {
    /// The transposed matmul: one invocation per gradient element walks the whole batch.
    InvocationPerElement,
    /// [`TrainingKernel::BatchSum`]: a workgroup of 64 per element, a tree at the end.
    WorkgroupPerElement,
}
// ANCHOR_END: reductions

/// One dispatch of `c (m×n) = aᵀ · b`, the sum over a batch of `k` samples.
pub fn batch_sum(
    ctx: &GpuContext,
    label: &str,
    (m, k, n): (usize, usize, usize),
    reduction: BatchReduction,
    [a, b, c]: [&wgpu::Buffer; 3],
) -> Result<Dispatch, Error> {
    if reduction == BatchReduction::InvocationPerElement {
        return matmul(ctx, label, (m, k, n), Transpose::A, a, b, c);
    }
    let kernel = TrainingKernel::BatchSum;
    let (m32, n32) = (index(kernel, m)?, index(kernel, n)?);
    let shape = ctx.upload(label, &[m32, index(kernel, k)?, n32, 1])?;
    let workgroups = [n32, m32, 1];
    within_limits(ctx, kernel, workgroups)?;
    dispatch(ctx, kernel, label, &[&shape, a, b, c], workgroups)
}

/// One dispatch of a kernel that takes one workgroup per sample row (`m` rows of `n`), or one
/// workgroup in all ([`TrainingKernel::LossMean`], which adds up the rows).
pub fn rows(
    ctx: &GpuContext,
    kernel: TrainingKernel,
    (m, n): (usize, usize),
    buffers: &[&wgpu::Buffer],
) -> Result<Dispatch, Error> {
    let shape = ctx.upload(kernel.name(), &[index(kernel, m)?, index(kernel, n)?, 0, 0])?;
    let groups = match kernel {
        TrainingKernel::LossMean => 1,
        _ => index(kernel, m)?,
    };
    let workgroups = [groups, 1, 1];
    within_limits(ctx, kernel, workgroups)?;
    let mut all = vec![&shape];
    all.extend_from_slice(buffers);
    dispatch(ctx, kernel, kernel.name(), &all, workgroups)
}

/// One dispatch of an element-wise kernel over `count` elements (`rate` for SGD).
pub fn elements(
    ctx: &GpuContext,
    kernel: TrainingKernel,
    label: &str,
    count: usize,
    rate: f32,
    buffers: &[&wgpu::Buffer],
) -> Result<Dispatch, Error> {
    let count32 = index(kernel, count)?;
    let header = ctx.upload(label, &[count32, rate.to_bits()])?;
    let max = ctx.device.limits().max_compute_workgroups_per_dimension;
    let workgroups = grid_1d(workgroups_for(count32, 256), max);
    within_limits(ctx, kernel, workgroups)?;
    let mut all = vec![&header];
    all.extend_from_slice(buffers);
    dispatch(ctx, kernel, label, &all, workgroups)
}

fn dispatch(
    ctx: &GpuContext,
    kernel: TrainingKernel,
    label: &str,
    buffers: &[&wgpu::Buffer],
    workgroups: [u32; 3],
) -> Result<Dispatch, Error> {
    let pipeline = kernel.pipeline(ctx)?;
    let bind_group = ctx.bind_buffers(&pipeline, buffers);
    Ok(Dispatch {
        label: label.into(),
        pipeline,
        bind_group,
        workgroups,
    })
}

fn index(kernel: TrainingKernel, value: usize) -> Result<u32, Error> {
    u32::try_from(value).map_err(|_| Error::Unsupported {
        kernel: kernel.name(),
        detail: format!("{value} does not fit the kernel's 32-bit indices: use a smaller batch"),
    })
}

fn within_limits(ctx: &GpuContext, kernel: TrainingKernel, groups: [u32; 3]) -> Result<(), Error> {
    let max = ctx.device.limits().max_compute_workgroups_per_dimension;
    if groups.iter().any(|&g| g > max) {
        return Err(Error::Unsupported {
            kernel: kernel.name(),
            detail: format!(
                "it needs {groups:?} workgroups but this device allows {max} per dimension: \
                 use a smaller batch"
            ),
        });
    }
    Ok(())
}
