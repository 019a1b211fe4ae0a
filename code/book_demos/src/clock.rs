//! Timing with the clock the platform has: the page's `performance.now()` in a browser,
//! `std::time::Instant` natively (which does not exist on `wasm32-unknown-unknown`).

use std::future::Future;

use crate::DemoError;

/// Milliseconds since an arbitrary start, as a float.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Milliseconds since the first call, as a float.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Timed samples per measurement; the median is reported.
pub const SAMPLES: usize = 5;
/// Fewer samples where one repetition alone takes this long (a software adapter on a big size):
/// the reader would otherwise wait minutes for the same median.
const SLOW_MS: f64 = 500.0;
const SLOW_SAMPLES: usize = 3;
/// A sample repeats the work until it lasts about this long, so that the browser's coarse
/// clock (0.1 ms steps where the page is not cross-origin isolated) does not matter.
const TARGET_MS: f64 = 20.0;
const MAX_REPETITIONS: u32 = 64;

/// The median time of one repetition, and how it was measured.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Timing {
    pub median_ms: f64,
    pub repetitions: u32,
    pub samples: u32,
}

/// Times `run(n)`, which must do `n` repetitions of the work and resolve when the GPU has
/// finished them. The caller has run the work once already (a warm-up: pipelines compiled).
pub async fn time_repeated<F, Fut>(mut run: F) -> Result<Timing, DemoError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<(), DemoError>>,
{
    let start = now_ms();
    run(1).await?;
    let once = (now_ms() - start).max(1e-3);
    let repetitions = ((TARGET_MS / once).ceil() as u32).clamp(1, MAX_REPETITIONS);
    let samples = if once > SLOW_MS {
        SLOW_SAMPLES
    } else {
        SAMPLES
    };
    let mut times = Vec::with_capacity(samples);
    for _ in 0..samples {
        let start = now_ms();
        run(repetitions).await?;
        times.push((now_ms() - start) / f64::from(repetitions));
    }
    times.sort_by(f64::total_cmp);
    Ok(Timing {
        median_ms: times[samples / 2],
        repetitions,
        samples: samples as u32,
    })
}

impl Timing {
    /// "median of 5 samples of 12 dispatches each", for a box's notes.
    pub fn describe(&self, unit: &str, units: &str) -> String {
        let what = if self.repetitions == 1 { unit } else { units };
        format!(
            "median of {} samples of {} {what} each",
            self.samples, self.repetitions
        )
    }
}
