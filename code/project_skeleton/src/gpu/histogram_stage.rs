//! The GPU processing stage: module 2's privatised histogram kernel (the same WGSL file, included
//! by the parallelism crate) run on every frame, its result read back through the ring.

use std::collections::VecDeque;
use std::time::Duration;

use gpu_context::{GpuContext, GpuError, wgpu};

use crate::gpu::poller::CountingPoller;
use crate::gpu::ring::ReadbackRing;
use crate::pipeline::process::{Processed, Processor};
use crate::pipeline::source::Frame;

const BINS_BYTES: u64 = 256 * 4;
const WORKGROUP_SIZE: u32 = 256;

/// What can go wrong in the GPU stage.
#[derive(Debug, thiserror::Error)]
pub enum GpuStageError {
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(
        "a frame of {got} pixels reached a GPU stage made for {expected}: make the stage with \
         the source's width and height"
    )]
    FrameSize { expected: usize, got: usize },
    #[error("frames of {pixels} pixels are too many to count in 32 bits: use smaller frames")]
    TooLarge { pixels: u64 },
    #[error(
        "a frame of {pixels} pixels cannot be packed 4 to a word: use a width that is a multiple of 4"
    )]
    NotWords { pixels: usize },
}

/// The histogram of every frame on the GPU, `k` frames in flight.
pub struct GpuHistogram {
    ctx: GpuContext,
    pipeline: std::sync::Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    pixels: wgpu::Buffer,
    bins: wgpu::Buffer,
    groups: u32,
    ring: ReadbackRing,
    poller: CountingPoller,
    /// Frames whose results are in the ring, oldest first.
    waiting: VecDeque<Frame>,
    n_pixels: usize,
    dropped: u64,
}

impl GpuHistogram {
    /// A stage for frames of `width` × `height` pixels with a ring of `k` buffers.
    pub fn new(ctx: GpuContext, width: u32, height: u32, k: usize) -> Result<Self, GpuStageError> {
        let pixels_u64 = u64::from(width) * u64::from(height);
        let n_bytes = u32::try_from(pixels_u64)
            .map_err(|_| GpuStageError::TooLarge { pixels: pixels_u64 })?;
        let n_pixels = n_bytes as usize;
        if !n_pixels.is_multiple_of(4) {
            return Err(GpuStageError::NotWords { pixels: n_pixels });
        }
        let shader = parallelism::gpu_histogram::SHADER;
        let pipeline = ctx.cached_pipeline("histogram", shader, "privatised")?;
        let pixels = ctx.storage_buffer("frame pixels", pixels_u64)?;
        let params = ctx.upload("histogram params", &[n_bytes])?;
        let bins = ctx.storage_buffer("histogram bins", BINS_BYTES)?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&pixels, &params, &bins]);
        let groups = (n_bytes / 4).div_ceil(WORKGROUP_SIZE).clamp(1, 1024);
        let ring = ReadbackRing::new(&ctx.device, BINS_BYTES, k);
        let poller = CountingPoller::new(ctx.device.clone());
        Ok(Self {
            ctx,
            pipeline,
            bind_group,
            pixels,
            bins,
            groups,
            ring,
            poller,
            waiting: VecDeque::new(),
            n_pixels,
            dropped: 0,
        })
    }

    /// The polls and waits made so far (a test asserts no waits while frames flow).
    pub fn poller(&self) -> &CountingPoller {
        &self.poller
    }

    pub fn ring(&self) -> &ReadbackRing {
        &self.ring
    }

    // ANCHOR: submit
    /// Records and submits one frame's histogram, with a copy of it into the ring.
    fn submit(&mut self, frame: &Frame) {
        let Some(slot) = self.ring.next_buffer() else {
            unreachable!("submit is called only when the ring has room");
        };
        self.ctx.queue.write_buffer(&self.pixels, 0, &frame.pixels);
        let mut encoder = self.ctx.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&self.bins, 0, None);
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_group, &[]);
            pass.dispatch_workgroups(self.groups, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&self.bins, 0, slot, 0, BINS_BYTES);
        self.ctx.queue.submit([encoder.finish()]);
        self.ring.submitted(frame.index);
    }
    // ANCHOR_END: submit

    /// Moves every result the ring hands over into `ready`, matched with its frame.
    fn collect(
        waiting: &mut VecDeque<Frame>,
        now: Duration,
        ready: &mut Vec<Processed>,
    ) -> impl FnMut(u64, &[u8]) {
        move |tag, bytes| {
            // Results come out in submission order, so the oldest waiting frame is this one.
            let frame = waiting.pop_front();
            debug_assert_eq!(frame.as_ref().map(|f| f.index), Some(tag));
            if let Some(frame) = frame {
                let mut histogram = [0u32; 256];
                histogram.copy_from_slice(&bytemuck::pod_collect_to_vec::<u8, u32>(bytes)[..256]);
                ready.push(Processed {
                    frame,
                    histogram,
                    processed_at: now,
                });
            }
        }
    }
}

impl Processor for GpuHistogram {
    type Error = GpuStageError;

    // ANCHOR: process
    fn process(
        &mut self,
        frame: Frame,
        now: Duration,
        ready: &mut Vec<Processed>,
    ) -> Result<(), GpuStageError> {
        if frame.pixels.len() != self.n_pixels {
            return Err(GpuStageError::FrameSize {
                expected: self.n_pixels,
                got: frame.pixels.len(),
            });
        }
        if self.ring.next_buffer().is_some() {
            self.submit(&frame);
            self.waiting.push_back(frame);
        } else {
            // All K results still in flight: the GPU is behind. Waiting here would stall the
            // frame loop, so this frame is given up and counted instead.
            self.dropped += 1;
        }
        let collect = Self::collect(&mut self.waiting, now, ready);
        self.ring.read_due(&mut self.poller, collect)?;
        Ok(())
    }
    // ANCHOR_END: process

    fn flush(&mut self, now: Duration, ready: &mut Vec<Processed>) -> Result<(), GpuStageError> {
        let collect = Self::collect(&mut self.waiting, now, ready);
        self.ring.drain(&mut self.poller, collect)?;
        Ok(())
    }

    fn dropped(&self) -> u64 {
        self.dropped
    }
}
