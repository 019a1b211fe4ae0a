//! `device.poll` with a count of each kind: a test can then assert that the frame loop only ever
//! polled (returned at once) and never waited for the GPU.

use gpu_context::{GpuError, wgpu};

// ANCHOR: poller
/// The only way this crate calls `device.poll`.
pub struct CountingPoller {
    device: wgpu::Device,
    polls: u64,
    waits: u64,
}

impl CountingPoller {
    pub fn new(device: wgpu::Device) -> Self {
        Self {
            device,
            polls: 0,
            waits: 0,
        }
    }

    /// Runs the callbacks of finished work (buffer maps) and returns at once: the hot path's call.
    pub fn poll(&mut self) -> Result<(), GpuError> {
        self.polls += 1;
        self.device
            .poll(wgpu::PollType::Poll)
            .map(|_| ())
            .map_err(|e| GpuError::Execution(e.to_string()))
    }

    /// Blocks until every submission has finished: for shutdown, never for a frame.
    pub fn wait(&mut self) -> Result<(), GpuError> {
        self.waits += 1;
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Execution(e.to_string()))
    }
}
// ANCHOR_END: poller

impl CountingPoller {
    pub fn polls(&self) -> u64 {
        self.polls
    }

    pub fn waits(&self) -> u64 {
        self.waits
    }
}
