//! The per-frame work whose result the ring reads back (given): each frame's values, generated
//! from the frame number, summed into 16 bins on the GPU; and the same on the CPU to compare.

use std::sync::Arc;

use gpu_context::{GpuContext, GpuError, wgpu};

/// Words in one frame's result.
pub const BINS: usize = 16;
/// Values in one frame.
pub const FRAME_VALUES: usize = 4096;

const SHADER: &str = include_str!("histogram.wgsl");
const WORKGROUP_SIZE: u32 = 64;

/// Frame `frame`'s values: a SplitMix64 stream seeded by the frame, each below 2^16 (so that a
/// bin's sum of 4096 of them fits in 32 bits).
pub fn frame_values(frame: u64) -> Vec<u32> {
    let mut state = frame.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    (0..FRAME_VALUES)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 48) as u32
        })
        .collect()
}

/// What the GPU computes for frame `frame`, computed on the CPU.
pub fn reference_histogram(frame: u64) -> Vec<u32> {
    let mut bins = vec![0u32; BINS];
    for v in frame_values(frame) {
        bins[(v & 15) as usize] += v;
    }
    bins
}

/// The compute pass of one frame: upload its values, clear the bins, sum into them.
pub struct HistogramKernel {
    pipeline: Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    values: wgpu::Buffer,
    bins: wgpu::Buffer,
}

impl HistogramKernel {
    pub fn new(ctx: &GpuContext) -> Result<Self, GpuError> {
        let pipeline = ctx.cached_pipeline("frame histogram", SHADER, "histogram")?;
        let values = ctx.storage_buffer("frame values", (FRAME_VALUES * 4) as u64)?;
        let bins = ctx.storage_buffer("frame bins", (BINS * 4) as u64)?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&values, &bins]);
        Ok(Self {
            pipeline,
            bind_group,
            values,
            bins,
        })
    }

    /// Records frame `frame`'s work into `encoder` (its values are written through the queue,
    /// ahead of the next submission). The result lands in [`Self::result`].
    pub fn record(&self, ctx: &GpuContext, frame: u64, encoder: &mut wgpu::CommandEncoder) {
        ctx.queue
            .write_buffer(&self.values, 0, bytemuck::cast_slice(&frame_values(frame)));
        encoder.clear_buffer(&self.bins, 0, None);
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.dispatch_workgroups((FRAME_VALUES as u32).div_ceil(WORKGROUP_SIZE), 1, 1);
    }

    /// The storage buffer holding the latest frame's [`BINS`] words (`BINS * 4` bytes).
    pub fn result(&self) -> &wgpu::Buffer {
        &self.bins
    }
}
