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
}
