use std::time::{Duration, Instant};

use crate::{GpuContext, GpuError, ReadbackBuffer};

/// Where a GPU time came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingSource {
    /// Timestamps written by the GPU itself: only the GPU's work, no submission or waiting.
    GpuTimestamps,
    /// The CPU clock around submit-and-wait: includes driver and synchronisation overhead.
    CpuWallClock,
}

/// One timed submission.
#[derive(Clone, Copy, Debug)]
pub struct TimedRun {
    /// The best time available: GPU timestamps if the adapter has them, else `wall`.
    pub time: Duration,
    /// The CPU clock from submit to the end of the wait.
    pub wall: Duration,
    pub source: TimingSource,
}

impl GpuContext {
    /// Whether this device writes GPU timestamps.
    pub fn has_timestamps(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    // ANCHOR: time_commands
    /// Records the commands from `record`, submits them, waits, and times them.
    ///
    /// With timestamp queries, an empty compute pass before and after the recorded commands
    /// writes a start and an end timestamp, so any mix of passes and copies can be timed with
    /// only the base `TIMESTAMP_QUERY` feature.
    pub fn time_commands(
        &self,
        record: impl FnOnce(&mut wgpu::CommandEncoder),
    ) -> Result<TimedRun, GpuError> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let queries = self.has_timestamps().then(|| {
            let set = self.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("time_commands"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            });
            let resolved = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamps"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            (set, resolved)
        });
        if let Some((set, _)) = &queries {
            mark(&mut encoder, set, 0);
        }
        record(&mut encoder);
        let readback = match &queries {
            Some((set, resolved)) => {
                mark(&mut encoder, set, 1);
                encoder.resolve_query_set(set, 0..2, resolved, 0);
                let readback = ReadbackBuffer::new(self, 16)?;
                encoder.copy_buffer_to_buffer(resolved, 0, readback.buffer(), 0, 16);
                Some(readback)
            }
            None => None,
        };
        let start = Instant::now();
        self.queue.submit([encoder.finish()]);
        self.wait()?;
        let wall = start.elapsed();
        match readback {
            Some(readback) => {
                let ticks: Vec<u64> = readback.read_recorded(self, 16)?;
                let nanos = ticks[1].saturating_sub(ticks[0]) as f64
                    * f64::from(self.queue.get_timestamp_period());
                Ok(TimedRun {
                    time: Duration::from_nanos(nanos as u64),
                    wall,
                    source: TimingSource::GpuTimestamps,
                })
            }
            None => Ok(TimedRun {
                time: wall,
                wall,
                source: TimingSource::CpuWallClock,
            }),
        }
    }
    // ANCHOR_END: time_commands
}

fn mark(encoder: &mut wgpu::CommandEncoder, set: &wgpu::QuerySet, index: u32) {
    let (beginning, end) = if index == 0 {
        (Some(0), None)
    } else {
        (None, Some(1))
    };
    encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some("timestamp"),
        timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
            query_set: set,
            beginning_of_pass_write_index: beginning,
            end_of_pass_write_index: end,
        }),
    });
}
