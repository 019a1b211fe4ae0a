//! Exercise: SAXPY, `y ← a·x + y`, on the GPU through `gpu_context`.
//!
//! This file is given (the grader uses the staff copy): the checks, the uploads, the dispatch
//! and the read-back. Your work: the kernel in `src/saxpy.wgsl` and the workgroup count in
//! `src/launch.rs`.

mod launch;

use std::fmt;

use gpu_context::{GpuContext, GpuError};

pub use launch::workgroups;

/// Your kernel, compiled into the library.
pub const SAXPY_WGSL: &str = include_str!("saxpy.wgsl");

/// Invocations per workgroup: the `@workgroup_size` of the kernel.
pub const WORKGROUP_SIZE: u32 = 64;

/// What can go wrong, each with what to do about it.
#[derive(Debug)]
pub enum SaxpyError {
    /// `saxpy` needs `x` and `y` of the same length.
    LengthMismatch {
        x: usize,
        y: usize,
    },
    /// `saxpy_prefix` needs at least `n` elements in `x` and in `y`.
    TooShort {
        n: usize,
        x: usize,
        y: usize,
    },
    /// More elements than a `u32` index can reach.
    TooLong {
        n: usize,
    },
    /// `saxpy_prefix_limited` was asked for a limit of 0 workgroups per dimension.
    ZeroLimit,
    /// `workgroups` gave counts the device cannot launch.
    Launch {
        workgroups: [u32; 3],
        max: u32,
    },
    Gpu(GpuError),
}

impl fmt::Display for SaxpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LengthMismatch { x, y } => write!(
                f,
                "x has {x} elements and y has {y}: give both the same length"
            ),
            Self::TooShort { n, x, y } => write!(
                f,
                "n = {n}, but x has {x} elements and y has {y}: pass n at most the shorter length"
            ),
            Self::TooLong { n } => write!(
                f,
                "{n} elements is more than a u32 index reaches: split the vectors"
            ),
            Self::ZeroLimit => write!(
                f,
                "a limit of 0 workgroups per dimension launches nothing: pass at least 1"
            ),
            Self::Launch { workgroups, max } => write!(
                f,
                "workgroups returned {workgroups:?}, but each count must be between 1 and {max}: \
                 fix launch.rs"
            ),
            Self::Gpu(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SaxpyError {}

impl From<GpuError> for SaxpyError {
    fn from(e: GpuError) -> Self {
        Self::Gpu(e)
    }
}

/// `a·x + y`, element by element, on the GPU. Empty vectors give an empty vector.
pub fn saxpy(ctx: &GpuContext, a: f32, x: &[f32], y: &[f32]) -> Result<Vec<f32>, SaxpyError> {
    if x.len() != y.len() {
        return Err(SaxpyError::LengthMismatch {
            x: x.len(),
            y: y.len(),
        });
    }
    saxpy_prefix(ctx, x.len(), a, x, y)
}

/// BLAS-style SAXPY: `y[i] ← a·x[i] + y[i]` for `i < n` only; `x` and `y` may be longer, and the
/// elements of `y` from `n` on come back unchanged. Returns all of `y`.
pub fn saxpy_prefix(
    ctx: &GpuContext,
    n: usize,
    a: f32,
    x: &[f32],
    y: &[f32],
) -> Result<Vec<f32>, SaxpyError> {
    let max = ctx.device.limits().max_compute_workgroups_per_dimension;
    saxpy_prefix_limited(ctx, n, a, x, y, max)
}

/// [`saxpy_prefix`] with at most `max_workgroups` workgroups per dimension (capped at the
/// device's limit), so that a test can make a small vector need a two-dimensional grid.
pub fn saxpy_prefix_limited(
    ctx: &GpuContext,
    n: usize,
    a: f32,
    x: &[f32],
    y: &[f32],
    max_workgroups: u32,
) -> Result<Vec<f32>, SaxpyError> {
    if x.len() < n || y.len() < n {
        return Err(SaxpyError::TooShort {
            n,
            x: x.len(),
            y: y.len(),
        });
    }
    if max_workgroups == 0 {
        return Err(SaxpyError::ZeroLimit);
    }
    if n == 0 {
        return Ok(y.to_vec());
    }
    let count = u32::try_from(n).map_err(|_| SaxpyError::TooLong { n })?;
    let max = max_workgroups.min(ctx.device.limits().max_compute_workgroups_per_dimension);
    let groups = launch::workgroups(count, max);
    // A count out of range would be a validation failure deep inside wgpu; say it plainly here.
    if groups.iter().any(|&g| g == 0 || g > max) {
        return Err(SaxpyError::Launch {
            workgroups: groups,
            max,
        });
    }

    // The kernel reads n and a from one small buffer: [n, bits of a].
    let params = ctx.upload("saxpy params", &[count, a.to_bits()])?;
    let x_buffer = ctx.upload("saxpy x", x)?;
    let y_buffer = ctx.upload("saxpy y", y)?;
    let pipeline = ctx.cached_pipeline("saxpy", SAXPY_WGSL, "saxpy")?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&params, &x_buffer, &y_buffer]);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
    }
    ctx.queue.submit([encoder.finish()]);
    Ok(ctx.download(&y_buffer)?)
}
