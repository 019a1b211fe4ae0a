//! The GPU's own time for one compute pass, from WebGPU's timestamp queries (wgpu's
//! `TIMESTAMP_QUERY`, the browser's optional `timestamp-query` feature): what the vector-add
//! demo reports beside its round trip when the page is opened with `?timestamps=1`.

use crate::DemoError;
use crate::vector_add::read_back;

/// A query set of two timestamps (the pass's beginning and end) and the buffers that bring them
/// back to the CPU: resolved into a `QUERY_RESOLVE` buffer, copied into a mappable one.
pub struct PassTimer {
    query_set: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// Nanoseconds per timestamp tick (1 in a browser, whose timestamps are nanoseconds).
    period_ns: f32,
}

/// Chrome's WebGPU (Dawn) zeroes the low 16 bits of every timestamp, in nanoseconds, unless its
/// developer features are on: its `kTimestampQuantizationMask` is `0xFFFF_0000`, so values come in
/// steps of 2^16 ns = 65.536 µs.
pub const QUANTUM_NS: u64 = 1 << 16;

/// One pass's time on the GPU's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassTime {
    pub ms: f64,
    /// Both raw readings are whole multiples of [`QUANTUM_NS`]: the browser quantized them.
    /// Unquantized readings both land on a multiple by chance once in 2^32 passes.
    pub quantized: bool,
}

impl PassTime {
    /// From the two raw readings (a browser's are nanoseconds: `period_ns` is 1). The test runs
    /// on the integers, before any conversion to floating point can blur their low bits.
    pub fn from_ticks(begin: u64, end: u64, period_ns: f32) -> Self {
        Self {
            ms: end.saturating_sub(begin) as f64 * f64::from(period_ns) / 1e6,
            quantized: begin.is_multiple_of(QUANTUM_NS) && end.is_multiple_of(QUANTUM_NS),
        }
    }
}

const BYTES: u64 = 2 * std::mem::size_of::<u64>() as u64;

impl PassTimer {
    /// `None` where the device was opened without timestamp queries: the adapter does not offer
    /// them, or the program did not ask for them.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let query_set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: BYTES,
                usage,
                mapped_at_creation: false,
            })
        };
        Some(Self {
            query_set,
            resolved: buffer(
                "timestamps",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            readback: buffer(
                "timestamps readback",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            period_ns: queue.get_timestamp_period(),
        })
    }

    // ANCHOR: timestamps
    /// The `timestampWrites` of the pass to time: index 0 at its beginning, 1 at its end.
    pub fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.query_set,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    /// Records, after the pass: resolve the two values, copy them where the CPU can map them.
    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.query_set, 0..2, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.readback, 0, BYTES);
    }

    /// The pass's duration, once the submission that resolved it has run.
    pub async fn read(&self, device: &wgpu::Device) -> Result<PassTime, DemoError> {
        let ticks: Vec<u64> = read_back(device, &self.readback).await?;
        Ok(PassTime::from_ticks(ticks[0], ticks[1], self.period_ns))
    }
    // ANCHOR_END: timestamps
}
