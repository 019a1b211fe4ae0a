//! Benchmarking basics: warm up, take several samples, report the median, and keep the
//! compiler from deleting the work you are timing.
//!
//! The course's harness is `bench_harness`; this module shows the two ideas a first benchmark
//! most often gets wrong, as small functions the figure program uses.

use std::time::{Duration, Instant};

use bench_harness::{Stats, black_box};

// ANCHOR: first_vs_steady
/// Times the very first call of `f` on its own, then the steady state after `warmup` more calls.
/// The first call pays for one-off costs (allocation, page faults, lazy set-up, cold caches)
/// that a steady-state loop does not.
pub fn first_and_steady(warmup: usize, samples: usize, mut f: impl FnMut()) -> (Duration, Stats) {
    let start = Instant::now();
    f();
    let first = start.elapsed();
    let steady = bench_harness::measure(warmup, samples, f);
    (first, steady)
}
// ANCHOR_END: first_vs_steady

// ANCHOR: compare
/// Medians of `a` and `b`, measured in alternation (a, b, a, b, …) so that a change in the
/// machine's state during the run (another program, the CPU's clock) hits both alike.
pub fn compare(
    warmup: usize,
    samples: usize,
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> (Stats, Stats) {
    for _ in 0..warmup {
        a();
        b();
    }
    let mut times_a = Vec::with_capacity(samples);
    let mut times_b = Vec::with_capacity(samples);
    for _ in 0..samples.max(1) {
        times_a.push(time(&mut a));
        times_b.push(time(&mut b));
    }
    let stats = |t: &[f64]| Stats::from_seconds(t).expect("at least one sample, never NaN");
    (stats(&times_a), stats(&times_b))
}

fn time(f: &mut impl FnMut()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}
// ANCHOR_END: compare

// ANCHOR: black_box
/// A sum whose input and result pass through `black_box`: the optimiser must assume someone
/// looks at them, so it can neither compute the sum at compile time nor skip it.
pub fn honest_sum(values: &[f32]) -> f32 {
    black_box(black_box(values).iter().sum::<f32>())
}
// ANCHOR_END: black_box

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_and_steady_runs_the_right_number_of_times() {
        let mut calls = 0;
        let (_first, steady) = first_and_steady(2, 5, || calls += 1);
        assert_eq!(calls, 1 + 2 + 5);
        assert_eq!(steady.samples, 5);
    }

    #[test]
    fn compare_alternates_and_counts() {
        let order = std::cell::RefCell::new(Vec::new());
        let (a, b) = compare(
            1,
            3,
            || order.borrow_mut().push('a'),
            || order.borrow_mut().push('b'),
        );
        assert_eq!(a.samples, 3);
        assert_eq!(b.samples, 3);
        assert_eq!(order.into_inner().iter().collect::<String>(), "abababab");
    }

    #[test]
    fn honest_sum_sums() {
        assert_eq!(honest_sum(&[1.0, 2.0, 3.5]), 6.5);
    }
}
