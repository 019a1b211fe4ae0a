//! A batch streamed through the Linear kernel in chunks: upload, compute, read back.
//!
//! The same chunks run in two orders. [`Schedule::Serial`] does one phase at a time over all
//! chunks, so the GPU copies, then computes, then copies back, and the CPU waits between phases.
//! [`Schedule::Pipelined`] gives each chunk its own submission and keeps several submitted
//! before it waits for the oldest: while the GPU works on one chunk, the CPU copies the next
//! chunk's input into staging memory and the finished chunks' results out of mapped memory.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc;

use gpu_context::{GpuContext, GpuError, wgpu};

use super::{MapResult, TransferError, finish_map, map_error, request_map};
use crate::ops::gpu::{Kernel, Pipelines, dims_buffer, pipeline};
use crate::ops::linear_shape;
use crate::tensor::Tensor2D;

/// The order in which the chunks' uploads, kernels and read-backs are submitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Upload every chunk, then run every chunk's kernel, then read every chunk back: one
    /// submission and one wait per phase.
    Serial,
    /// One submission per chunk (upload, kernel, copy to the read-back buffer), with up to
    /// `in_flight` chunks submitted and not yet read back.
    Pipelined { in_flight: usize },
}

/// One chunk of rows and the buffers it owns, so that chunks in flight never share one.
struct Chunk {
    first_row: usize,
    rows: usize,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    readback: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    workgroups: [u32; 3],
}

/// `Y = X·W + b` for a batch `X` of `rows × k`, with `W` and `b` resident on the device and `X`
/// streamed in `chunks` pieces of rows.
pub struct ChunkedLinear {
    rows: usize,
    k: usize,
    n: usize,
    pipeline: Arc<wgpu::ComputePipeline>,
    chunks: Vec<Chunk>,
}

impl ChunkedLinear {
    /// Uploads the weights and bias, and makes every chunk's buffers.
    pub fn new(
        ctx: &GpuContext,
        rows: usize,
        weights: &Tensor2D,
        bias: &Tensor2D,
        chunks: usize,
    ) -> Result<Self, TransferError> {
        let (k, n) = weights.shape();
        linear_shape("chunked linear", (rows, k), weights.shape(), bias.shape())?;
        if chunks == 0 || chunks > rows {
            return Err(TransferError::Chunks { rows, chunks });
        }
        let pipeline = pipeline(ctx, Kernel::Linear, Pipelines::Cached)?;
        let w = ctx.upload("weights", weights.data())?;
        let b = ctx.upload("bias", bias.data())?;
        let mut made = Vec::with_capacity(chunks);
        let mut first_row = 0;
        for i in 0..chunks {
            // The first rows % chunks chunks take one row more.
            let rows_here = rows / chunks + usize::from(i < rows % chunks);
            let dims = dims_buffer(ctx, rows_here, k, n)?;
            let input = ctx.storage_buffer("chunk input", (rows_here * k * 4) as u64)?;
            let output = ctx.storage_buffer("chunk output", (rows_here * n * 4) as u64)?;
            let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("chunk readback"),
                size: output.size(),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let bind_group = ctx.bind_buffers(&pipeline, &[&dims, &input, &w, &b, &output]);
            made.push(Chunk {
                first_row,
                rows: rows_here,
                workgroups: Kernel::Linear.workgroups(ctx, rows_here, n)?,
                input,
                output,
                readback,
                bind_group,
            });
            first_row += rows_here;
        }
        Ok(Self {
            rows,
            k,
            n,
            pipeline,
            chunks: made,
        })
    }

    /// Computes `output = input·W + b` (both row-major, `rows × k` and `rows × n`).
    pub fn run(
        &self,
        ctx: &GpuContext,
        input: &[f32],
        output: &mut [f32],
        schedule: Schedule,
    ) -> Result<(), TransferError> {
        check_len(self.rows * self.k, input.len())?;
        check_len(self.rows * self.n, output.len())?;
        match schedule {
            Schedule::Serial => {
                self.upload_all(ctx, input)?;
                self.compute_all(ctx)?;
                self.read_all(ctx, output)
            }
            Schedule::Pipelined { in_flight: 0 } => Err(TransferError::NothingInFlight),
            Schedule::Pipelined { in_flight } => self.pipelined(ctx, input, output, in_flight),
        }
    }

    // ANCHOR: serial
    /// Phase 1 of the serial schedule: every chunk's input, then one wait.
    pub fn upload_all(&self, ctx: &GpuContext, input: &[f32]) -> Result<(), TransferError> {
        check_len(self.rows * self.k, input.len())?;
        for chunk in &self.chunks {
            ctx.queue.write_buffer(
                &chunk.input,
                0,
                bytemuck::cast_slice(self.rows_of(chunk, input)),
            );
        }
        ctx.queue.submit([]);
        Ok(ctx.wait()?)
    }

    /// Phase 2: every chunk's kernel in one compute pass, then one wait.
    pub fn compute_all(&self, ctx: &GpuContext) -> Result<(), TransferError> {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            for chunk in &self.chunks {
                self.record_kernel(&mut pass, chunk);
            }
        }
        ctx.queue.submit([encoder.finish()]);
        Ok(ctx.wait()?)
    }

    /// Phase 3: every chunk's result copied to its read-back buffer, one wait, then the CPU
    /// copies them out.
    pub fn read_all(&self, ctx: &GpuContext, output: &mut [f32]) -> Result<(), TransferError> {
        check_len(self.rows * self.n, output.len())?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        for chunk in &self.chunks {
            encoder.copy_buffer_to_buffer(&chunk.output, 0, &chunk.readback, 0, None);
        }
        ctx.queue.submit([encoder.finish()]);
        let answers: Vec<_> = self
            .chunks
            .iter()
            .map(|c| request_map(&c.readback, wgpu::MapMode::Read))
            .collect();
        ctx.wait()?;
        for (chunk, answer) in self.chunks.iter().zip(&answers) {
            self.finish_chunk(chunk, answer, output)?;
        }
        Ok(())
    }
    // ANCHOR_END: serial

    // ANCHOR: pipelined
    /// One submission per chunk, and a wait only when `in_flight` chunks are already submitted.
    fn pipelined(
        &self,
        ctx: &GpuContext,
        input: &[f32],
        output: &mut [f32],
        in_flight: usize,
    ) -> Result<(), TransferError> {
        let mut pending = VecDeque::with_capacity(in_flight);
        for chunk in &self.chunks {
            if pending.len() == in_flight {
                self.finish_oldest(ctx, &mut pending, output)?;
            }
            // The CPU copies this chunk into staging memory while the GPU may still be busy
            // with the chunks submitted before it.
            ctx.queue.write_buffer(
                &chunk.input,
                0,
                bytemuck::cast_slice(self.rows_of(chunk, input)),
            );
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                self.record_kernel(&mut pass, chunk);
            }
            encoder.copy_buffer_to_buffer(&chunk.output, 0, &chunk.readback, 0, None);
            let submitted = ctx.queue.submit([encoder.finish()]);
            let answer = request_map(&chunk.readback, wgpu::MapMode::Read);
            pending.push_back((chunk, submitted, answer));
        }
        while !pending.is_empty() {
            self.finish_oldest(ctx, &mut pending, output)?;
        }
        Ok(())
    }

    /// Waits for the oldest chunk in flight only, and copies its result out.
    fn finish_oldest(
        &self,
        ctx: &GpuContext,
        pending: &mut VecDeque<InFlight<'_>>,
        output: &mut [f32],
    ) -> Result<(), TransferError> {
        let Some((chunk, submitted, answer)) = pending.pop_front() else {
            return Ok(());
        };
        ctx.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submitted),
                timeout: None,
            })
            .map_err(|e| GpuError::Execution(e.to_string()))?;
        self.finish_chunk(chunk, &answer, output)
    }
    // ANCHOR_END: pipelined

    fn record_kernel(&self, pass: &mut wgpu::ComputePass<'_>, chunk: &Chunk) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &chunk.bind_group, &[]);
        let [x, y, z] = chunk.workgroups;
        pass.dispatch_workgroups(x, y, z);
    }

    /// Copies a mapped chunk result into its rows of `output` and unmaps it.
    fn finish_chunk(
        &self,
        chunk: &Chunk,
        answer: &mpsc::Receiver<MapResult>,
        output: &mut [f32],
    ) -> Result<(), TransferError> {
        finish_map(answer, "chunk read-back")?;
        {
            let view = chunk
                .readback
                .slice(..)
                .get_mapped_range()
                .map_err(|e| map_error("chunk read-back", e))?;
            let rows = chunk.first_row * self.n..(chunk.first_row + chunk.rows) * self.n;
            bytemuck::cast_slice_mut::<f32, u8>(&mut output[rows]).copy_from_slice(&view);
        }
        chunk.readback.unmap();
        Ok(())
    }

    fn rows_of<'a>(&self, chunk: &Chunk, input: &'a [f32]) -> &'a [f32] {
        &input[chunk.first_row * self.k..(chunk.first_row + chunk.rows) * self.k]
    }
}

/// Refuses a slice of `got` floats where `expected` belong.
fn check_len(expected: usize, got: usize) -> Result<(), TransferError> {
    if got == expected {
        Ok(())
    } else {
        Err(TransferError::WrongLength {
            expected: expected * 4,
            got: got * 4,
        })
    }
}

/// A chunk submitted and not yet read back: its submission, and the answer to its map request.
type InFlight<'a> = (&'a Chunk, wgpu::SubmissionIndex, mpsc::Receiver<MapResult>);
