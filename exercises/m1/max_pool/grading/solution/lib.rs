//! Exercise: max pooling at every level — on the CPU, as an immediate GPU kernel, and as a node
//! of a (small) graph runner.
//!
//! Given here: the image type, the GPU host code and the graph runner. Your work: `shape.rs`,
//! `cpu.rs`, `max_pool.wgsl` and the `MaxPool` arm in `graph.rs`.

mod cpu;
mod graph;
mod shape;

pub use cpu::max_pool_cpu;
pub use graph::{Device, Node, run_graph};
pub use shape::pooled_shape;

use gpu_context::{GpuContext, GpuError, wgpu};

/// The kernel you write: one thread per output element.
pub const MAX_POOL_WGSL: &str = include_str!("max_pool.wgsl");

/// Channels × height × width, stored channel by channel, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub channels: usize,
    pub height: usize,
    pub width: usize,
    pub data: Vec<f32>,
}

impl Image {
    pub fn new(
        channels: usize,
        height: usize,
        width: usize,
        data: Vec<f32>,
    ) -> Result<Self, PoolError> {
        if data.len() != channels * height * width {
            return Err(PoolError::Shape(format!(
                "{} values for a {channels}×{height}×{width} image",
                data.len()
            )));
        }
        Ok(Self {
            channels,
            height,
            width,
            data,
        })
    }

    pub fn at(&self, c: usize, y: usize, x: usize) -> f32 {
        self.data[(c * self.height + y) * self.width + x]
    }
}

#[derive(Debug)]
pub enum PoolError {
    /// Bad sizes: the message says which.
    Shape(String),
    Gpu(GpuError),
}

impl std::fmt::Display for PoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolError::Shape(msg) => write!(f, "wrong shape: {msg}"),
            PoolError::Gpu(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for PoolError {}

impl From<GpuError> for PoolError {
    fn from(err: GpuError) -> Self {
        PoolError::Gpu(err)
    }
}

/// Max pooling with window and stride `k` on the GPU, with your kernel.
pub fn max_pool_gpu(ctx: &GpuContext, image: &Image, k: usize) -> Result<Image, PoolError> {
    let (oh, ow) = pooled_shape(image.height, image.width, k)?;
    let pipeline = ctx.cached_pipeline("max_pool", MAX_POOL_WGSL, "main")?;
    let dims = [image.channels, image.height, image.width, k, oh, ow, 0, 0].map(|v| v as u32);
    let bx = ctx.upload("image", &image.data)?;
    let by = ctx.storage_buffer("pooled", (image.channels * oh * ow * 4) as u64)?;
    let bd = ctx.upload("dims", &dims)?;
    let bind = ctx.bind_buffers(&pipeline, &[&bx, &by, &bd]);
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(
            (ow as u32).div_ceil(8),
            (oh as u32).div_ceil(8),
            image.channels as u32,
        );
    }
    ctx.queue.submit([encoder.finish()]);
    Image::new(image.channels, oh, ow, ctx.download::<f32>(&by)?)
}
