//! Your work: making the ring, submitting a frame into it, and taking results back in order.

use gpu_context::{GpuContext, wgpu};

use crate::{FrameResult, GpuPoller, ReadbackError, ReadbackRing};

impl<P: GpuPoller> ReadbackRing<P> {
    /// A ring of `k` staging buffers of `result_bytes` bytes each, polled through `poller`.
    pub fn new(
        ctx: &GpuContext,
        poller: P,
        k: usize,
        result_bytes: u64,
    ) -> Result<Self, ReadbackError> {
        let _ = (&ctx.device, poller);
        todo!(
            "check k ({k}) and result_bytes ({result_bytes}), then make k MAP_READ | COPY_DST \
             buffers, each with its state FREE"
        )
    }

    /// Appends to `encoder` a copy of `source`'s first bytes into the next free slot, submits it
    /// and asks for that slot to be mapped. When every slot is in use, submits nothing, counts
    /// the frame as refused and returns [`ReadbackError::Full`]: it never waits.
    pub fn submit(
        &mut self,
        queue: &wgpu::Queue,
        frame: u64,
        encoder: wgpu::CommandEncoder,
        source: &wgpu::Buffer,
    ) -> Result<(), ReadbackError> {
        let _ = (queue, encoder, source);
        todo!("copy, submit and map_async frame {frame}'s result, or refuse it when full")
    }

    /// Polls once without blocking, then says how many results, from the oldest on, can be taken
    /// now (a failed one counts: taking it reports the failure).
    pub fn poll_ready(&mut self) -> Result<usize, ReadbackError> {
        todo!("poll through self.poller without waiting, then count the finished slots in front")
    }

    /// The oldest result if its mapping has finished, `None` if it has not (or nothing is in
    /// flight). Never polls, never waits. A later result is never handed out before it.
    pub fn try_take(&mut self) -> Result<Option<FrameResult>, ReadbackError> {
        todo!("read, unmap and free the oldest slot if it is mapped")
    }

    /// At shutdown: waits for the GPU and returns every result still in flight, oldest first.
    /// With nothing in flight it returns at once, without waiting.
    pub fn flush(&mut self) -> Result<Vec<FrameResult>, ReadbackError> {
        todo!("wait through the poller, then take every result left, in order")
    }
}
