//! The hand-written WGSL kernels and how to launch them.

use gpu_context::wgpu;
use gpu_context::{GpuContext, workgroups_for};
use std::sync::Arc;

use crate::Error;
use crate::matmul_ladder::tuned::{Epilogue, Tuning};

/// Invocations per workgroup of the row-wise kernels (one workgroup per row).
pub const ROW_WORKGROUP: u32 = 64;

/// The operator kernels. Each source is `common.wgsl` (the Dims struct) plus the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    Linear,
    Relu,
    Softmax,
    LinearRelu,
    LinearReluSoftmax,
}

const COMMON: &str = include_str!("wgsl/common.wgsl");
/// WGSL helpers for tree reductions over a workgroup (a row's max and sum), prepended to the
/// row kernels here and to other crates' kernels that reduce the same way.
pub const REDUCE_WGSL: &str = include_str!("wgsl/reduce.wgsl");

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Linear => "linear",
            Kernel::Relu => "relu",
            Kernel::Softmax => "softmax",
            Kernel::LinearRelu => "linear_relu",
            Kernel::LinearReluSoftmax => "linear_relu_softmax",
        }
    }

    /// The complete WGSL source of this kernel.
    pub fn source(self) -> String {
        let (body, reduce) = match self {
            Kernel::Linear => (include_str!("wgsl/linear.wgsl"), false),
            Kernel::Relu => (include_str!("wgsl/relu.wgsl"), false),
            Kernel::Softmax => (include_str!("wgsl/softmax.wgsl"), true),
            Kernel::LinearRelu => (include_str!("wgsl/linear_relu.wgsl"), false),
            Kernel::LinearReluSoftmax => (include_str!("wgsl/linear_relu_softmax.wgsl"), true),
        };
        let mut s = String::from(COMMON);
        if reduce {
            s.push_str(REDUCE_WGSL);
        }
        s.push_str(body);
        s
    }

    /// True for kernels with weights and bias (bindings: dims, input, weights, bias, output).
    pub fn has_weights(self) -> bool {
        matches!(
            self,
            Kernel::Linear | Kernel::LinearRelu | Kernel::LinearReluSoftmax
        )
    }

    /// How many workgroups cover an m×n output, or an error before anything is dispatched.
    pub fn workgroups(self, ctx: &GpuContext, m: usize, n: usize) -> Result<[u32; 3], Error> {
        let max = ctx.device.limits().max_compute_workgroups_per_dimension;
        let too_big = |detail: String| Error::Unsupported {
            kernel: self.name(),
            detail,
        };
        let (m32, n32) = match (u32::try_from(m), u32::try_from(n)) {
            (Ok(m), Ok(n)) => (m, n),
            _ => return Err(too_big(format!("{m}×{n} does not fit 32-bit indices"))),
        };
        let groups = match self {
            Kernel::Linear | Kernel::LinearRelu => {
                [workgroups_for(n32, 16), workgroups_for(m32, 16), 1]
            }
            Kernel::Softmax | Kernel::LinearReluSoftmax => [m32, 1, 1],
            Kernel::Relu => {
                let items = m32.checked_mul(n32).ok_or_else(|| {
                    too_big(format!("{m}×{n} elements do not fit 32-bit indices"))
                })?;
                grid_1d(workgroups_for(items, 256), max)
            }
        };
        if groups.iter().any(|&g| g > max) {
            return Err(too_big(format!(
                "an output of {m}×{n} needs {groups:?} workgroups, but this device allows at most \
                 {max} per dimension: split the tensor into smaller pieces"
            )));
        }
        Ok(groups)
    }
}

/// Spreads `groups` workgroups over x and y when x alone cannot hold them.
pub fn grid_1d(groups: u32, max_per_dim: u32) -> [u32; 3] {
    if groups <= max_per_dim {
        [groups.max(1), 1, 1]
    } else {
        [max_per_dim, groups.div_ceil(max_per_dim), 1]
    }
}

/// The four u32s of the kernels' `Dims` struct, uploaded once per node.
pub fn dims_buffer(ctx: &GpuContext, m: usize, k: usize, n: usize) -> Result<wgpu::Buffer, Error> {
    Ok(ctx.upload("dims", &[m as u32, k as u32, n as u32, 0])?)
}

// ANCHOR: dispatch
/// Everything needed to launch one kernel: recorded into a pass in microseconds.
pub struct Dispatch {
    pub label: String,
    pub pipeline: Arc<wgpu::ComputePipeline>,
    pub bind_group: wgpu::BindGroup,
    pub workgroups: [u32; 3],
}

impl Dispatch {
    pub fn record(&self, pass: &mut wgpu::ComputePass<'_>) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        let [x, y, z] = self.workgroups;
        pass.dispatch_workgroups(x, y, z);
    }
}
// ANCHOR_END: dispatch

/// Whether pipelines are compiled on every use or taken from the context's cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipelines {
    CompileEveryTime,
    Cached,
}

// ANCHOR: pipeline
/// The compiled pipeline for `kernel`: compiled afresh, or looked up in the cache.
pub fn pipeline(
    ctx: &GpuContext,
    kernel: Kernel,
    mode: Pipelines,
) -> Result<Arc<wgpu::ComputePipeline>, Error> {
    let source = kernel.source();
    Ok(match mode {
        Pipelines::CompileEveryTime => {
            Arc::new(ctx.compile_pipeline(kernel.name(), &source, "main")?)
        }
        Pipelines::Cached => ctx.cached_pipeline(kernel.name(), &source, "main")?,
    })
}
// ANCHOR_END: pipeline

// ANCHOR: linear_tuning
/// The matmul kernel for an m×k · k×n Linear whose bias (and ReLU) run as its epilogue.
///
/// A GPU fills up only when it has several workgroups per multiprocessor (an H100 has 132).
/// 128×128 blocks give 64 workgroups at 1024², which is already thin; at 256² they would give
/// 4, so smaller products take smaller blocks: 64×64 from 512², 32×32 (64 invocations, 64
/// workgroups at 256²) below.
pub fn linear_tuning(m: usize, k: usize, n: usize, epilogue: Epilogue) -> Tuning {
    let base = if m * n >= 1024 * 1024 {
        Tuning::LARGE
    } else if m * n >= 512 * 512 {
        Tuning::MEDIUM
    } else {
        Tuning::SMALL
    };
    Tuning {
        epilogue,
        ..base.for_shape(m, k, n)
    }
}
// ANCHOR_END: linear_tuning
