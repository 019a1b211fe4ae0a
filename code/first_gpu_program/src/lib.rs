//! Module 0's first GPU program: add two vectors on the GPU.
//!
//! ```
//! let ctx = gpu_context::GpuContext::new()?;
//! let sum = first_gpu_program::add_vectors(&ctx, &[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0])?;
//! assert_eq!(sum, [11.0, 22.0, 33.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use gpu_context::{GpuContext, GpuError, workgroups_for};

/// The WGSL kernel, compiled into the binary so the program runs from any directory.
pub const SHADER: &str = include_str!("vector_add.wgsl");
const WORKGROUP_SIZE: u32 = 64;

/// What can go wrong when adding two vectors on the GPU.
#[derive(Debug)]
pub enum VectorAddError {
    /// The inputs differ in length; element-wise addition needs equal lengths.
    LengthMismatch {
        a: usize,
        b: usize,
    },
    /// More elements than one dispatch dimension can index.
    TooLong {
        len: usize,
    },
    Gpu(GpuError),
}

impl fmt::Display for VectorAddError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LengthMismatch { a, b } => {
                write!(
                    f,
                    "cannot add vectors of lengths {a} and {b}: give both the same length"
                )
            }
            Self::TooLong { len } => write!(
                f,
                "{len} elements is more than one dispatch can cover ({} at most): add in chunks",
                u64::from(u16::MAX) * u64::from(WORKGROUP_SIZE)
            ),
            Self::Gpu(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for VectorAddError {}

impl From<GpuError> for VectorAddError {
    fn from(e: GpuError) -> Self {
        Self::Gpu(e)
    }
}

/// Adds `a` and `b` element by element on the GPU of `ctx`.
// ANCHOR: add_vectors
pub fn add_vectors(ctx: &GpuContext, a: &[f32], b: &[f32]) -> Result<Vec<f32>, VectorAddError> {
    // 1. Check the input on the CPU, where a clear error is cheap.
    if a.len() != b.len() {
        return Err(VectorAddError::LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    let groups = workgroups_for(a.len() as u32, WORKGROUP_SIZE);
    if a.len() > u32::MAX as usize
        || groups > ctx.device.limits().max_compute_workgroups_per_dimension
    {
        return Err(VectorAddError::TooLong { len: a.len() });
    }
    if a.is_empty() {
        return Ok(Vec::new());
    }

    // 2. Copy the inputs into GPU buffers and make room for the output.
    let a_buffer = ctx.upload("a", a)?;
    let b_buffer = ctx.upload("b", b)?;
    let sum_buffer = ctx.storage_buffer("sum", std::mem::size_of_val(a) as u64)?;

    // 3. Compile the shader into a pipeline (once; later calls reuse it) and bind the buffers.
    let pipeline = ctx.cached_pipeline("vector_add", SHADER, "add")?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&a_buffer, &b_buffer, &sum_buffer]);

    // 4. Record the work: one compute pass with one dispatch of enough workgroups.
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(groups, 1, 1);
    }

    // 5. Submit it. The call returns at once: the GPU runs while the CPU goes on.
    ctx.queue.submit([encoder.finish()]);

    // 6. Read the result back; this waits for the GPU to finish.
    Ok(ctx.download(&sum_buffer)?)
}
// ANCHOR_END: add_vectors
