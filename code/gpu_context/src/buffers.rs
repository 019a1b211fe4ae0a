use bytemuck::Pod;
use wgpu::util::DeviceExt;

use crate::{GpuContext, GpuError};

/// Usages for a storage buffer that kernels read and write and that can be copied both ways.
const STORAGE: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE
    .union(wgpu::BufferUsages::COPY_SRC)
    .union(wgpu::BufferUsages::COPY_DST);

impl GpuContext {
    /// Fails before anything is created when `bytes` cannot be bound as one storage buffer.
    pub fn check_buffer_size(&self, label: &str, bytes: u64) -> Result<(), GpuError> {
        let limits = self.device.limits();
        let max = limits
            .max_buffer_size
            .min(limits.max_storage_buffer_binding_size);
        if bytes > max {
            return Err(GpuError::BufferTooLarge {
                label: label.to_owned(),
                bytes,
                max,
            });
        }
        Ok(())
    }

    // ANCHOR: upload
    /// A storage buffer holding a copy of `data`.
    pub fn upload<T: Pod>(&self, label: &str, data: &[T]) -> Result<wgpu::Buffer, GpuError> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        self.check_buffer_size(label, bytes.len() as u64)?;
        Ok(self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage: STORAGE,
            }))
    }

    /// A zero-filled storage buffer of `bytes` bytes (rounded up to a multiple of 4).
    pub fn storage_buffer(&self, label: &str, bytes: u64) -> Result<wgpu::Buffer, GpuError> {
        let bytes = bytes.max(4).next_multiple_of(4);
        self.check_buffer_size(label, bytes)?;
        Ok(self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes,
            usage: STORAGE,
            mapped_at_creation: false,
        }))
    }
    // ANCHOR_END: upload

    /// Copies a storage buffer back to the CPU. Waits for all submitted work first.
    ///
    /// This makes a staging buffer on every call; code that reads back in a loop should keep a
    /// [`ReadbackBuffer`] instead.
    pub fn download<T: Pod>(&self, buffer: &wgpu::Buffer) -> Result<Vec<T>, GpuError> {
        pollster::block_on(self.download_async(buffer))
    }

    /// [`GpuContext::download`] without blocking: what a browser page, which must never wait,
    /// awaits instead.
    pub async fn download_async<T: Pod>(&self, buffer: &wgpu::Buffer) -> Result<Vec<T>, GpuError> {
        ReadbackBuffer::new(self, buffer.size())?
            .read_async(self, buffer)
            .await
    }

    // ANCHOR: bind_buffers
    /// A bind group for group 0 of `pipeline` with `buffers` at bindings 0, 1, 2, …
    pub fn bind_buffers(
        &self,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
            .iter()
            .enumerate()
            .map(|(i, buffer)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }
    // ANCHOR_END: bind_buffers

    /// Records one compute pass that runs `pipeline` over `groups` workgroups (x, y, z) with
    /// `bind_group` as group 0, and submits it. It returns at once: the GPU runs while the CPU
    /// goes on, and a later read-back waits for it. (`first_gpu_program` spells these steps out.)
    pub fn dispatch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        bind_group: &wgpu::BindGroup,
        groups: [u32; 3],
    ) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
        }
        self.queue.submit([encoder.finish()]);
    }
}

/// A mappable buffer kept for repeated read-backs, so that a loop does not allocate one per read.
///
/// Storage buffers live in GPU memory that the CPU cannot map on most GPUs; a read-back copies
/// into this host-visible buffer, waits, then maps it.
pub struct ReadbackBuffer {
    buffer: wgpu::Buffer,
}

impl ReadbackBuffer {
    pub fn new(ctx: &GpuContext, bytes: u64) -> Result<Self, GpuError> {
        let bytes = bytes.max(4).next_multiple_of(4);
        ctx.check_buffer_size("readback", bytes)?;
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Ok(Self { buffer })
    }

    pub fn size(&self) -> u64 {
        self.buffer.size()
    }

    // ANCHOR: read
    /// Copies `source` (all of it) into this buffer, waits, and returns its contents.
    pub fn read<T: Pod>(
        &self,
        ctx: &GpuContext,
        source: &wgpu::Buffer,
    ) -> Result<Vec<T>, GpuError> {
        pollster::block_on(self.read_async(ctx, source))
    }

    /// [`ReadbackBuffer::read`] as a future: the same steps, for callers that must not block.
    pub async fn read_async<T: Pod>(
        &self,
        ctx: &GpuContext,
        source: &wgpu::Buffer,
    ) -> Result<Vec<T>, GpuError> {
        let bytes = source.size();
        if bytes > self.buffer.size() {
            return Err(GpuError::Readback(format!(
                "the source holds {bytes} bytes but the read-back buffer only {}",
                self.buffer.size()
            )));
        }
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(source, 0, &self.buffer, 0, bytes);
        ctx.queue.submit([encoder.finish()]);
        self.map_and_copy(ctx, bytes).await
    }
    // ANCHOR_END: read

    /// Reads what earlier submitted work copied into this buffer (the caller recorded the copy).
    pub fn read_recorded<T: Pod>(&self, ctx: &GpuContext, bytes: u64) -> Result<Vec<T>, GpuError> {
        pollster::block_on(self.map_and_copy(ctx, bytes))
    }

    /// [`ReadbackBuffer::read_recorded`] without blocking.
    pub async fn read_recorded_async<T: Pod>(
        &self,
        ctx: &GpuContext,
        bytes: u64,
    ) -> Result<Vec<T>, GpuError> {
        self.map_and_copy(ctx, bytes).await
    }

    /// The buffer to name as the destination of a `copy_buffer_to_buffer` in one's own encoder.
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    // ANCHOR: map_and_copy
    /// Maps the first `bytes` and copies them out. A future, because a browser page cannot
    /// block: it awaits this, and a native program blocks on it with `pollster::block_on`.
    async fn map_and_copy<T: Pod>(&self, ctx: &GpuContext, bytes: u64) -> Result<Vec<T>, GpuError> {
        let slice = self.buffer.slice(..bytes);
        let (sender, receiver) = futures_channel::oneshot::channel();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            // The receiver is awaited below, so this send cannot fail.
            let _ = sender.send(result);
        });
        // A native device runs the callback inside `poll`, so wait for the queue here. In a
        // browser the page's event loop runs it, and the `await` below hands control back to it.
        #[cfg(not(target_arch = "wasm32"))]
        ctx.wait()?;
        #[cfg(target_arch = "wasm32")]
        let _ = ctx;
        receiver
            .await
            .map_err(|_| GpuError::Readback("the map callback never ran".into()))?
            .map_err(GpuError::Map)?;
        let out = {
            let view = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            // Copy out of the mapped range: it may not be aligned for T.
            bytemuck::pod_collect_to_vec::<u8, T>(&view)
        };
        self.buffer.unmap();
        Ok(out)
    }
    // ANCHOR_END: map_and_copy
}
