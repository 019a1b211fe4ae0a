//! The work every hot-loop pair does: a frame of sensor samples is smoothed and its peaks are
//! counted. Small (a few microseconds), so the cost of each rule shows against it.

use bench_harness::rng::SplitMix64;

/// Samples in one frame.
pub const FRAME_LEN: usize = 1024;

/// A deterministic frame: a sine with a little pseudo-noise, different for each frame number.
pub fn sensor_frame(frame: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(frame);
    (0..FRAME_LEN)
        .map(|i| {
            let noise = rng.next_f32() - 0.5;
            (i as f32 * 0.05 + frame as f32 * 0.01).sin() + 0.2 * noise
        })
        .collect()
}

/// Exponential smoothing into `out` (which is resized to the input's length).
pub fn smooth_into(input: &[f32], out: &mut Vec<f32>) {
    out.clear();
    let mut level = input.first().copied().unwrap_or(0.0);
    for &x in input {
        level += 0.25 * (x - level);
        out.push(level);
    }
}

/// Indices where the smoothed signal crosses `threshold` upwards, written into `peaks`.
pub fn find_peaks_into(smoothed: &[f32], threshold: f32, peaks: &mut Vec<usize>) {
    peaks.clear();
    for (i, pair) in smoothed.windows(2).enumerate() {
        if pair[0] < threshold && pair[1] >= threshold {
            peaks.push(i + 1);
        }
    }
}

/// The mean of a frame, as the one number a rule's loop returns.
pub fn mean(samples: &[f32]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.iter().map(|&x| f64::from(x)).sum::<f64>() / samples.len() as f64
}
