//! What optimising bought: stage 2 and stage 3 fed the same stream, one chunk at a time, with
//! the time of each `process` call recorded. Both keep their state across chunks, as they would
//! live, so stage 2's `Despike` history keeps growing for the whole run.

use super::{Settings, recording, s2_components, s3_allocation_free};
use crate::latency::{LatencySummary, time_each};

/// Samples per chunk: about 5 ms of a 48 kHz stream.
pub const CHUNK: usize = 256;

/// Chunks in the recording the timed loops cycle through (1 MiB of samples).
const RECORDED_CHUNKS: usize = 2048;

/// Per-chunk latency of stage 2 and of stage 3 over `warmup + iterations` chunks each.
pub fn time_stages(warmup: u64, iterations: u64) -> [(&'static str, LatencySummary); 2] {
    let raw = recording(CHUNK * RECORDED_CHUNKS, 7);
    let chunk = |i: u64| {
        let start = (i as usize % RECORDED_CHUNKS) * CHUNK;
        &raw[start..start + CHUNK]
    };

    let mut stage2 = s2_components::Pipeline::new(Settings::default());
    let components = time_each(warmup, iterations, |i| {
        stage2.process(chunk(i)).len() as f64
    });

    let mut stage3 = s3_allocation_free::Pipeline::new(Settings::default());
    let mut events = Vec::with_capacity(64);
    let allocation_free = time_each(warmup, iterations, |i| {
        events.clear();
        stage3.process(chunk(i), &mut events);
        events.len() as f64
    });

    [
        ("stage 2: components", components),
        ("stage 3: allocation-free", allocation_free),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_stages_are_timed_for_every_chunk() {
        for (name, s) in time_stages(3, 40) {
            assert_eq!(s.iterations, 40, "{name}");
            assert!(s.p50_ns > 0 && s.p50_ns <= s.max_ns, "{name}: {s:?}");
        }
    }
}
