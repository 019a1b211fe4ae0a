//! The frame-late read-back ring. Frame n's result is copied into buffer n mod K and mapped at
//! once; the CPU reads it at frame n + K − 1, by which time the GPU has long finished it. The
//! cost is K − 1 frames of latency; the gain is a frame loop that never waits for the GPU.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use gpu_context::{GpuError, wgpu};

use crate::gpu::poller::CountingPoller;

/// Where a slot's map request stands (set by wgpu's callback, read by the frame loop).
const MAPPING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;
/// Holding no result: before its first use, and after each read.
const IDLE: u8 = 3;

/// One buffer of the ring and where its map request stands.
struct Slot {
    buffer: wgpu::Buffer,
    state: Arc<AtomicU8>,
}

/// A result on its way back: which slot, which frame (`tag`) and its submission number.
struct InFlight {
    slot: usize,
    tag: u64,
    seq: u64,
}

// ANCHOR: ring_struct
/// K mappable buffers, used in turn; results come out in submission order.
pub struct ReadbackRing {
    slots: Vec<Slot>,
    in_flight: VecDeque<InFlight>,
    next_slot: usize,
    submitted: u64,
    /// Times the oldest result was due (K − 1 frames old) but the GPU had not finished it.
    late: u64,
}
// ANCHOR_END: ring_struct

impl ReadbackRing {
    /// `k` buffers of `bytes` bytes each (`k` is at least 1; 1 means "read in the same frame").
    pub fn new(device: &wgpu::Device, bytes: u64, k: usize) -> Self {
        let slots = (0..k.max(1))
            .map(|i| Slot {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(&format!("read-back ring slot {i}")),
                    size: bytes.max(4).next_multiple_of(4),
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                state: Arc::new(AtomicU8::new(IDLE)),
            })
            .collect();
        Self {
            slots,
            in_flight: VecDeque::new(),
            next_slot: 0,
            submitted: 0,
            late: 0,
        }
    }

    pub fn k(&self) -> usize {
        self.slots.len()
    }

    /// The buffer the next frame's result should be copied into; `None` when all K are still
    /// in flight (the GPU is more than K frames behind).
    pub fn next_buffer(&self) -> Option<&wgpu::Buffer> {
        (self.in_flight.len() < self.slots.len()).then(|| &self.slots[self.next_slot].buffer)
    }

    /// The copy into [`Self::next_buffer`] was submitted: ask for the buffer to be mapped when
    /// the GPU is done with it. Call only after `next_buffer` returned a buffer.
    pub fn submitted(&mut self, tag: u64) {
        let slot = &self.slots[self.next_slot];
        slot.state.store(MAPPING, Ordering::Release);
        let state = slot.state.clone();
        slot.buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                let now = if result.is_ok() { MAPPED } else { FAILED };
                state.store(now, Ordering::Release);
            });
        self.in_flight.push_back(InFlight {
            slot: self.next_slot,
            tag,
            seq: self.submitted,
        });
        self.next_slot = (self.next_slot + 1) % self.slots.len();
        self.submitted += 1;
    }

    // ANCHOR: ring_read
    /// Hands `read` every result that is at least K − 1 submissions old and mapped, oldest
    /// first, stopping at the first that is not ready. Polls, never waits.
    pub fn read_due(
        &mut self,
        poller: &mut CountingPoller,
        mut read: impl FnMut(u64, &[u8]),
    ) -> Result<usize, GpuError> {
        poller.poll()?;
        let lateness = self.slots.len() as u64 - 1;
        let mut n = 0;
        while let Some(front) = self.in_flight.front() {
            if self.submitted - 1 - front.seq < lateness {
                break; // not due yet: the GPU may still be working on it
            }
            if !self.take_front(&mut read)? {
                self.late += 1;
                break;
            }
            n += 1;
        }
        Ok(n)
    }
    // ANCHOR_END: ring_read

    /// At shutdown: waits for every result still in flight and hands them to `read` in order.
    pub fn drain(
        &mut self,
        poller: &mut CountingPoller,
        mut read: impl FnMut(u64, &[u8]),
    ) -> Result<usize, GpuError> {
        let mut n = 0;
        while !self.in_flight.is_empty() {
            if !self.take_front(&mut read)? {
                poller.wait()?;
                continue;
            }
            n += 1;
        }
        Ok(n)
    }

    /// Results due but not ready when their turn came, so far.
    pub fn late(&self) -> u64 {
        self.late
    }

    /// Results submitted and not yet read.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Reads and unmaps the oldest result if its map has finished; `false` if it has not.
    fn take_front(&mut self, read: &mut impl FnMut(u64, &[u8])) -> Result<bool, GpuError> {
        let Some(front) = self.in_flight.front() else {
            return Ok(false);
        };
        let slot = &self.slots[front.slot];
        match slot.state.load(Ordering::Acquire) {
            MAPPING => return Ok(false),
            MAPPED => {}
            FAILED => {
                return Err(GpuError::Readback(
                    "a read-back ring buffer could not be mapped (device lost?)".into(),
                ));
            }
            _ => {
                return Err(GpuError::Readback(
                    "a read-back ring slot was read before anything was copied into it".into(),
                ));
            }
        }
        {
            let view = slot
                .buffer
                .slice(..)
                .get_mapped_range()
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            read(front.tag, &view);
        }
        slot.buffer.unmap();
        slot.state.store(IDLE, Ordering::Release);
        self.in_flight.pop_front();
        Ok(true)
    }
}
