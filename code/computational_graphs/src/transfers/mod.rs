//! Moving bytes between the host and the device, and overlapping that with compute.
//!
//! [`TransferBuffers`] holds the buffers for one transfer size and moves data three ways:
//! through `queue.write_buffer`, through a staging buffer the CPU maps and fills itself, and back
//! through a buffer the CPU maps for reading. [`ChunkedLinear`] streams a batch through the
//! Linear kernel in chunks, serially or with several chunks in flight.
//!
//! Every transfer here runs from host memory to host memory as far as the caller's clock can
//! tell: the timed region of a benchmark starts before the CPU touches the data and ends after
//! the GPU has finished, because the CPU's copies are part of the cost.
//!
//! ```
//! use computational_graphs::transfers::TransferBuffers;
//! let ctx = gpu_context::GpuContext::new()?;
//! let data: Vec<u8> = (0..1001u32).map(|i| (i * 7) as u8).collect();
//! let buffers = TransferBuffers::new(&ctx, data.len())?;
//! buffers.upload_with_write_buffer(&ctx, &data)?;
//! let mut back = vec![0u8; data.len()];
//! buffers.download(&ctx, &mut back)?;
//! assert_eq!(back, data);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod overlap;

use std::sync::mpsc;

use gpu_context::{GpuContext, GpuError, TimedRun, wgpu};

pub use overlap::{ChunkedLinear, Schedule};

/// Why a transfer or a chunked run cannot go ahead.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    #[error("a transfer needs at least one byte")]
    Empty,
    #[error(
        "{bytes} bytes is more than the largest buffer this device allows ({max} bytes): send \
         the data in pieces of at most {max} bytes"
    )]
    TooLarge { bytes: u64, max: u64 },
    #[error(
        "these buffers are made for {expected} bytes but were handed {got}: make buffers of the \
         size you move"
    )]
    WrongLength { expected: usize, got: usize },
    #[error("cannot split {rows} rows into {chunks} chunks: use between 1 and {rows} chunks")]
    Chunks { rows: usize, chunks: usize },
    #[error("a pipelined schedule needs at least one chunk in flight")]
    NothingInFlight,
    #[error("mapping the {buffer} buffer failed: {message}")]
    Map {
        buffer: &'static str,
        message: String,
    },
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Operator(#[from] crate::Error),
}

/// Copies between buffers move whole multiples of 4 bytes.
const ALIGN: u64 = wgpu::COPY_BUFFER_ALIGNMENT;

/// The buffers that one transfer size needs, made once and reused by every transfer.
pub struct TransferBuffers {
    len: usize,
    padded: u64,
    /// Where kernels would read the data: device memory on a discrete GPU.
    device: wgpu::Buffer,
    /// Host-visible memory the CPU writes and the GPU copies from; mapped between uploads.
    staging: wgpu::Buffer,
    /// Host-visible memory the GPU copies into and the CPU maps to read.
    readback: wgpu::Buffer,
}

impl TransferBuffers {
    /// Buffers for transfers of exactly `len` bytes (any length; copies are padded to 4 bytes).
    pub fn new(ctx: &GpuContext, len: usize) -> Result<Self, TransferError> {
        if len == 0 {
            return Err(TransferError::Empty);
        }
        let bytes = len as u64;
        let padded = bytes.next_multiple_of(ALIGN);
        let max = ctx.device.limits().max_buffer_size;
        if padded > max {
            return Err(TransferError::TooLarge { bytes, max });
        }
        let make = |label, usage, mapped_at_creation| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: padded,
                usage,
                mapped_at_creation,
            })
        };
        use wgpu::BufferUsages as U;
        Ok(Self {
            len,
            padded,
            device: make(
                "transfer device",
                U::STORAGE | U::COPY_SRC | U::COPY_DST,
                false,
            ),
            staging: make("transfer staging", U::MAP_WRITE | U::COPY_SRC, true),
            readback: make("transfer readback", U::MAP_READ | U::COPY_DST, false),
        })
    }

    /// The number of bytes each transfer moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: [`TransferBuffers::new`] refuses zero bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    // ANCHOR: write_buffer
    /// Upload with `queue.write_buffer`: wgpu copies `data` into staging memory of its own at
    /// once, and the next submission copies that into the device buffer. Returns when the GPU
    /// has finished the copy.
    pub fn upload_with_write_buffer(
        &self,
        ctx: &GpuContext,
        data: &[u8],
    ) -> Result<(), TransferError> {
        self.check_len(data.len())?;
        let whole = data.len() - data.len() % ALIGN as usize;
        if whole > 0 {
            ctx.queue.write_buffer(&self.device, 0, &data[..whole]);
        }
        if whole < data.len() {
            // The last 1-3 bytes travel in a zero-padded word.
            let mut word = [0u8; ALIGN as usize];
            word[..data.len() - whole].copy_from_slice(&data[whole..]);
            ctx.queue.write_buffer(&self.device, whole as u64, &word);
        }
        // Writes start with the next submission; an empty one is enough.
        ctx.queue.submit([]);
        ctx.wait()?;
        Ok(())
    }
    // ANCHOR_END: write_buffer

    // ANCHOR: staged_upload
    /// Upload through a staging buffer the CPU maps and fills itself, then a GPU copy into the
    /// device buffer. The staging buffer is mapped again at once: that request completes with
    /// the copy, so one wait covers both, and the next upload finds it ready.
    pub fn upload_through_staging(
        &self,
        ctx: &GpuContext,
        data: &[u8],
    ) -> Result<(), TransferError> {
        self.check_len(data.len())?;
        {
            let mut view = self
                .staging
                .slice(..)
                .get_mapped_range_mut()
                .map_err(|e| map_error("staging", e))?;
            view.slice(..data.len()).copy_from_slice(data);
        }
        self.staging.unmap();
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.staging, 0, &self.device, 0, self.padded);
        ctx.queue.submit([encoder.finish()]);
        let remapped = request_map(&self.staging, wgpu::MapMode::Write);
        ctx.wait()?;
        finish_map(&remapped, "staging")
    }
    // ANCHOR_END: staged_upload

    // ANCHOR: download
    /// Download: a GPU copy into the read-back buffer, a map request, a wait, and a CPU copy out
    /// of the mapped memory into `out`.
    pub fn download(&self, ctx: &GpuContext, out: &mut [u8]) -> Result<(), TransferError> {
        self.check_len(out.len())?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.device, 0, &self.readback, 0, self.padded);
        ctx.queue.submit([encoder.finish()]);
        let mapped = request_map(&self.readback, wgpu::MapMode::Read);
        ctx.wait()?;
        finish_map(&mapped, "read-back")?;
        copy_out(&self.readback, out)
    }
    // ANCHOR_END: download

    // ANCHOR: device_copies
    /// Times only the GPU's part of each direction: the copy from the staging buffer into device
    /// memory, and from device memory into the read-back buffer. With GPU timestamps these
    /// times leave out everything the CPU does: its copies, the submission and the wait.
    pub fn time_device_copies(&self, ctx: &GpuContext) -> Result<[TimedRun; 2], TransferError> {
        self.staging.unmap();
        let up = ctx.time_commands(|encoder| {
            encoder.copy_buffer_to_buffer(&self.staging, 0, &self.device, 0, self.padded);
        });
        let down = ctx.time_commands(|encoder| {
            encoder.copy_buffer_to_buffer(&self.device, 0, &self.readback, 0, self.padded);
        });
        // Mapped again before any error returns, so the next staged upload finds it ready.
        let remapped = request_map(&self.staging, wgpu::MapMode::Write);
        ctx.wait()?;
        finish_map(&remapped, "staging")?;
        Ok([up?, down?])
    }
    // ANCHOR_END: device_copies

    fn check_len(&self, got: usize) -> Result<(), TransferError> {
        if got == self.len {
            Ok(())
        } else {
            Err(TransferError::WrongLength {
                expected: self.len,
                got,
            })
        }
    }
}

type MapResult = Result<(), wgpu::BufferAsyncError>;

/// Asks for the whole of `buffer` to be mapped; the answer arrives during a later poll.
fn request_map(buffer: &wgpu::Buffer, mode: wgpu::MapMode) -> mpsc::Receiver<MapResult> {
    let (sender, receiver) = mpsc::channel();
    buffer.slice(..).map_async(mode, move |result| {
        // The receiver outlives the poll that runs this callback, so the send cannot fail.
        let _ = sender.send(result);
    });
    receiver
}

/// The answer to [`request_map`], once a poll has run its callback.
fn finish_map(
    answer: &mpsc::Receiver<MapResult>,
    buffer: &'static str,
) -> Result<(), TransferError> {
    match answer.try_recv() {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(map_error(buffer, e)),
        Err(_) => Err(map_error(
            buffer,
            "the map request was not answered by the wait",
        )),
    }
}

/// Copies the first `out.len()` bytes of a mapped `buffer` into `out`, then unmaps it.
fn copy_out(buffer: &wgpu::Buffer, out: &mut [u8]) -> Result<(), TransferError> {
    {
        let view = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| map_error("read-back", e))?;
        out.copy_from_slice(&view[..out.len()]);
    }
    buffer.unmap();
    Ok(())
}

fn map_error(buffer: &'static str, e: impl std::fmt::Display) -> TransferError {
    TransferError::Map {
        buffer,
        message: e.to_string(),
    }
}
