//! A parallel Monte Carlo estimate of π that gives the same answer on any number of threads.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

// ANCHOR: pi
/// Samples per task. The seed of task `i` is derived from (`seed`, `i`), never from the thread
/// that happens to run it, so the result depends on `seed` and `samples` only.
const TASK_SAMPLES: u64 = 1 << 14;

pub fn estimate_pi(samples: u64, seed: u64) -> f64 {
    let tasks = samples.div_ceil(TASK_SAMPLES);
    let inside: u64 = (0..tasks)
        .into_par_iter()
        .map(|task| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(task); // an independent stream per task, same key
            let n = TASK_SAMPLES.min(samples - task * TASK_SAMPLES);
            (0..n)
                .filter(|_| {
                    let (x, y): (f64, f64) = (rng.random(), rng.random());
                    x * x + y * y <= 1.0
                })
                .count() as u64
        })
        .sum();
    4.0 * inside as f64 / samples.max(1) as f64
}
// ANCHOR_END: pi

// ANCHOR: shared_rng
/// The same estimate with one generator behind a `Mutex`, shared by every task: each sample
/// locks it. The answer now depends on which task drew which numbers, so it changes with the
/// thread count and from run to run; and every draw is a trip through one contended lock.
pub fn estimate_pi_shared_rng(samples: u64, seed: u64) -> f64 {
    let rng = std::sync::Mutex::new(ChaCha8Rng::seed_from_u64(seed));
    let tasks = samples.div_ceil(TASK_SAMPLES);
    let inside: u64 = (0..tasks)
        .into_par_iter()
        .map(|task| {
            let n = TASK_SAMPLES.min(samples - task * TASK_SAMPLES);
            (0..n)
                .filter(|_| {
                    let (x, y): (f64, f64) = {
                        // A poisoned lock still holds a usable generator: take it back.
                        let mut rng = rng.lock().unwrap_or_else(|e| e.into_inner());
                        (rng.random(), rng.random())
                    };
                    x * x + y * y <= 1.0
                })
                .count() as u64
        })
        .sum();
    4.0 * inside as f64 / samples.max(1) as f64
}
// ANCHOR_END: shared_rng

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_reproducible_on_any_thread_count() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| estimate_pi(100_000, 42))
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(5));
        assert!((one - std::f64::consts::PI).abs() < 0.05, "{one}");
        assert_ne!(one, estimate_pi(100_000, 43));
    }

    #[test]
    fn a_shared_generator_still_estimates_pi() {
        let estimate = estimate_pi_shared_rng(100_000, 42);
        assert!((estimate - std::f64::consts::PI).abs() < 0.05, "{estimate}");
    }
}
