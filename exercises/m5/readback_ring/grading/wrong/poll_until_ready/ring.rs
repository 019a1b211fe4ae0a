//! Your work: making the ring, submitting a frame into it, and taking results back in order.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use gpu_context::{GpuContext, GpuError, wgpu};

use crate::slot_state::{FREE, MAP_FAILED, MAPPED, MAPPING};
use crate::{FrameResult, GpuPoller, InFlight, ReadbackError, ReadbackRing, Slot};

impl<P: GpuPoller> ReadbackRing<P> {
    /// A ring of `k` staging buffers of `result_bytes` bytes each, polled through `poller`.
    pub fn new(
        ctx: &GpuContext,
        poller: P,
        k: usize,
        result_bytes: u64,
    ) -> Result<Self, ReadbackError> {
        if k == 0 {
            return Err(ReadbackError::NoSlots);
        }
        if result_bytes == 0 || !result_bytes.is_multiple_of(4) {
            return Err(ReadbackError::ResultSize {
                bytes: result_bytes,
            });
        }
        let slots = (0..k)
            .map(|i| Slot {
                buffer: ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(&format!("read-back slot {i}")),
                    size: result_bytes,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                state: Arc::new(AtomicU8::new(FREE)),
            })
            .collect();
        Ok(Self {
            poller,
            slots,
            result_bytes,
            in_flight: VecDeque::with_capacity(k),
            next_slot: 0,
            refused: 0,
        })
    }

    /// Appends to `encoder` a copy of `source`'s first bytes into the next free slot, submits it
    /// and asks for that slot to be mapped. When every slot is in use, submits nothing, counts
    /// the frame as refused and returns [`ReadbackError::Full`]: it never waits.
    pub fn submit(
        &mut self,
        queue: &wgpu::Queue,
        frame: u64,
        mut encoder: wgpu::CommandEncoder,
        source: &wgpu::Buffer,
    ) -> Result<(), ReadbackError> {
        if source.size() < self.result_bytes {
            return Err(ReadbackError::SourceTooSmall {
                expected: self.result_bytes,
                got: source.size(),
            });
        }
        if self.in_flight.len() == self.slots.len() {
            self.refused += 1;
            return Err(ReadbackError::Full {
                frame,
                slots: self.slots.len(),
            });
        }
        // Slots are filled and emptied in the same order, so the next one is free.
        let index = self.next_slot;
        let slot = &self.slots[index];
        encoder.copy_buffer_to_buffer(source, 0, &slot.buffer, 0, self.result_bytes);
        queue.submit([encoder.finish()]);
        slot.state.store(MAPPING, Ordering::Release);
        let state = Arc::clone(&slot.state);
        // The callback runs inside a later poll, once the GPU has finished the copy.
        slot.buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                let now = if result.is_ok() { MAPPED } else { MAP_FAILED };
                state.store(now, Ordering::Release);
            });
        self.in_flight.push_back(InFlight { frame, slot: index });
        self.next_slot = (index + 1) % self.slots.len();
        Ok(())
    }

    /// Polls once without blocking, then says how many results, from the oldest on, can be taken
    /// now (a failed one counts: taking it reports the failure).
    pub fn poll_ready(&mut self) -> Result<usize, ReadbackError> {
        if self.in_flight.is_empty() {
            return Ok(0);
        }
        // Wrong: keeps polling until the oldest result has come back, a wait in disguise.
        let oldest = self.in_flight[0].slot;
        loop {
            self.poller.poll(false)?;
            if self.slots[oldest].state.load(Ordering::Acquire) != MAPPING {
                break;
            }
        }
        Ok(self
            .in_flight
            .iter()
            .take_while(|f| self.slots[f.slot].state.load(Ordering::Acquire) != MAPPING)
            .count())
    }

    /// The oldest result if its mapping has finished, `None` if it has not (or nothing is in
    /// flight). Never polls, never waits. A later result is never handed out before it.
    pub fn try_take(&mut self) -> Result<Option<FrameResult>, ReadbackError> {
        let Some(front) = self.in_flight.front() else {
            return Ok(None);
        };
        let (frame, slot) = (front.frame, &self.slots[front.slot]);
        match slot.state.load(Ordering::Acquire) {
            MAPPED => {
                let words = {
                    let view = slot
                        .buffer
                        .slice(..)
                        .get_mapped_range()
                        .map_err(|e| GpuError::Readback(e.to_string()))?;
                    bytemuck::pod_collect_to_vec::<u8, u32>(&view)
                };
                slot.buffer.unmap();
                slot.state.store(FREE, Ordering::Release);
                self.in_flight.pop_front();
                Ok(Some(FrameResult { frame, words }))
            }
            MAP_FAILED => {
                // A failed map leaves the buffer unmapped: the slot is free again.
                slot.state.store(FREE, Ordering::Release);
                self.in_flight.pop_front();
                Err(ReadbackError::MapFailed { frame })
            }
            _ => Ok(None),
        }
    }

    /// At shutdown: waits for the GPU and returns every result still in flight, oldest first.
    /// With nothing in flight it returns at once, without waiting.
    pub fn flush(&mut self) -> Result<Vec<FrameResult>, ReadbackError> {
        let mut results = Vec::with_capacity(self.in_flight.len());
        let mut waits_without_progress = 0;
        while !self.in_flight.is_empty() {
            match self.try_take()? {
                Some(result) => {
                    results.push(result);
                    waits_without_progress = 0;
                }
                None if waits_without_progress < 3 => {
                    self.poller.poll(true)?;
                    waits_without_progress += 1;
                }
                None => {
                    return Err(GpuError::Readback(
                        "the GPU finished its work but a read-back slot never mapped".into(),
                    )
                    .into());
                }
            }
        }
        Ok(results)
    }
}
