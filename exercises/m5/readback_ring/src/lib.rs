//! Exercise: a read-back ring. Each frame's GPU result is copied into one of K mappable staging
//! buffers and mapped; the frame loop takes results back in frame order as their mappings
//! finish, and never waits for the GPU. When all K buffers are still in use it refuses the new
//! frame (back-pressure) instead of waiting. Only [`ReadbackRing::flush`], at shutdown, may wait.
//!
//! This file is given (the grader uses the course's copy): the poller the ring must poll through,
//! the ring's fields, its errors and the per-frame kernel. Your methods are in `ring.rs`.

mod kernel;
mod ring;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use gpu_context::{GpuError, wgpu};

pub use kernel::{BINS, FRAME_VALUES, HistogramKernel, frame_values, reference_histogram};

/// The ring's only way to make wgpu run finished work's callbacks (`map_async`'s among them).
/// Tests implement it to count the calls; [`DevicePoller`] is the real one.
pub trait GpuPoller {
    /// `wait == false`: run the callbacks of whatever has finished and return at once (the frame
    /// loop's call). `wait == true`: block until all submitted work has finished (shutdown only).
    fn poll(&self, wait: bool) -> Result<(), GpuError>;
}

/// [`GpuPoller`] over a device: `PollType::Poll`, or `PollType::wait_indefinitely()`.
pub struct DevicePoller {
    device: wgpu::Device,
}

impl DevicePoller {
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            device: device.clone(),
        }
    }
}

impl GpuPoller for DevicePoller {
    fn poll(&self, wait: bool) -> Result<(), GpuError> {
        let how = if wait {
            wgpu::PollType::wait_indefinitely()
        } else {
            wgpu::PollType::Poll
        };
        self.device
            .poll(how)
            .map(|_| ())
            .map_err(|e| GpuError::Execution(e.to_string()))
    }
}

/// One frame's result, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameResult {
    /// The frame number the caller passed to [`ReadbackRing::submit`].
    pub frame: u64,
    /// The result's bytes as `u32` words.
    pub words: Vec<u32>,
}

/// What can go wrong, each with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum ReadbackError {
    #[error("a read-back ring needs at least one slot: pass k >= 1 (2 or 3 is usual)")]
    NoSlots,
    #[error(
        "a result of {bytes} bytes cannot be read back as u32 words: pass a size that is a \
         positive multiple of 4"
    )]
    ResultSize { bytes: u64 },
    #[error(
        "the source buffer holds {got} bytes, but this ring reads back {expected}: copy from a \
         buffer at least that large, or make the ring with the source's size"
    )]
    SourceTooSmall { expected: u64, got: u64 },
    /// Back-pressure: every slot holds a result not yet taken. Nothing was submitted.
    #[error(
        "frame {frame} was not submitted: all {slots} read-back slots are still in use (the GPU \
         or the consumer is {slots} frames behind); take results with try_take, or skip frames"
    )]
    Full { frame: u64, slots: usize },
    #[error(
        "frame {frame}'s result could not be mapped (the device may be lost): that result is \
         gone; later frames can still be taken"
    )]
    MapFailed { frame: u64 },
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// Where a slot's mapping stands. The `map_async` callback sets [`MAPPED`] or [`MAP_FAILED`];
/// the ring sets the others.
// The ring you write in ring.rs uses these; the stub does not yet.
#[allow(dead_code)]
pub(crate) mod slot_state {
    /// Holding no result: before first use, and after its result was taken.
    pub const FREE: u8 = 0;
    /// The copy was submitted and `map_async` called; the callback has not run yet.
    pub const MAPPING: u8 = 1;
    pub const MAPPED: u8 = 2;
    pub const MAP_FAILED: u8 = 3;
}

/// One staging buffer (`MAP_READ | COPY_DST`) and where its mapping stands.
#[allow(dead_code)]
pub(crate) struct Slot {
    pub(crate) buffer: wgpu::Buffer,
    /// One of [`slot_state`]'s values; shared with the `map_async` callback.
    pub(crate) state: Arc<AtomicU8>,
}

/// A submitted frame: which slot holds its result.
#[allow(dead_code)]
pub(crate) struct InFlight {
    pub(crate) frame: u64,
    pub(crate) slot: usize,
}

/// K staging buffers used in turn; results come back in submission order.
///
/// There is no device here: [`GpuPoller`] is the ring's only way to poll.
#[allow(dead_code)]
pub struct ReadbackRing<P: GpuPoller> {
    pub(crate) poller: P,
    pub(crate) slots: Vec<Slot>,
    /// Bytes read back per frame (a positive multiple of 4).
    pub(crate) result_bytes: u64,
    /// Submitted and not yet taken, oldest first.
    pub(crate) in_flight: VecDeque<InFlight>,
    /// The slot the next frame's result goes into.
    pub(crate) next_slot: usize,
    /// Frames refused with [`ReadbackError::Full`], so far.
    pub(crate) refused: u64,
}

impl<P: GpuPoller> ReadbackRing<P> {
    /// K, the number of slots.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Frames submitted whose results have not been taken yet.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Frames refused because the ring was full, so far.
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// The poller, e.g. to read a counting poller's counts.
    pub fn poller(&self) -> &P {
        &self.poller
    }

    /// For tests: makes the oldest frame's mapping fail, as a lost device would, by destroying
    /// its staging buffer (a pending mapping's `map_async` callback then gets an error; a
    /// finished one is marked failed). A new buffer takes the slot's place, so later frames can use it.
    /// Returns the frame, or `None` when nothing is in flight.
    #[doc(hidden)]
    pub fn fail_oldest_mapping_for_tests(&mut self, device: &wgpu::Device) -> Option<u64> {
        let oldest = self.in_flight.front()?;
        let slot = &mut self.slots[oldest.slot];
        let fresh = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back slot (replaced)"),
            size: slot.buffer.size(),
            usage: slot.buffer.usage(),
            mapped_at_creation: false,
        });
        std::mem::replace(&mut slot.buffer, fresh).destroy();
        // A mapping that had already finished is lost with its buffer all the same.
        let _ = slot.state.compare_exchange(
            slot_state::MAPPED,
            slot_state::MAP_FAILED,
            Ordering::AcqRel,
            Ordering::Acquire,
        );
        Some(oldest.frame)
    }
}
