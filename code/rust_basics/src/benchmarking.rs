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

/// [`compare`] for any number of variants: `run(i)` runs variant `i`, and each round runs
/// every variant once, in order (`warmup` rounds first, untimed). The stats come back in the
/// variants' order.
pub fn compare_all(
    warmup: usize,
    samples: usize,
    variants: usize,
    mut run: impl FnMut(usize),
) -> Vec<Stats> {
    for _ in 0..warmup {
        (0..variants).for_each(&mut run);
    }
    let mut times = vec![Vec::with_capacity(samples); variants];
    for _ in 0..samples.max(1) {
        for (i, t) in times.iter_mut().enumerate() {
            t.push(time(&mut || run(i)));
        }
    }
    times
        .iter()
        .map(|t| Stats::from_seconds(t).expect("at least one sample, never NaN"))
        .collect()
}

// ANCHOR: decide
/// What several independent runs of [`compare`] say about `b` against `a`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// `b` takes `ratio` (< 1) times as long as `a`, in every run.
    BFaster { ratio: f64 },
    /// `b` takes `ratio` (> 1) times as long as `a`, in every run.
    BSlower { ratio: f64 },
    /// The runs disagree on which is faster, or the spreads overlap in most runs.
    NoClearDifference { ratio: f64 },
}

/// A rule for "do these two versions differ?": call a difference only if **every** run puts
/// `b`'s median on the same side of `a`'s, **and** in most runs the p10–p90 ranges do not
/// overlap. `ratio` is the median over runs of `b`'s median / `a`'s median.
pub fn decide(runs: &[(Stats, Stats)]) -> Verdict {
    let mut ratios: Vec<f64> = runs.iter().map(|(a, b)| b.median / a.median).collect();
    ratios.sort_by(f64::total_cmp);
    let ratio = ratios.get(ratios.len() / 2).copied().unwrap_or(1.0);
    let apart = runs
        .iter()
        .filter(|(a, b)| a.p90 < b.p10 || b.p90 < a.p10)
        .count();
    let clear = !runs.is_empty() && 2 * apart > runs.len();
    match (clear, ratios.first(), ratios.last()) {
        (true, _, Some(&hi)) if hi < 1.0 => Verdict::BFaster { ratio },
        (true, Some(&lo), _) if lo > 1.0 => Verdict::BSlower { ratio },
        _ => Verdict::NoClearDifference { ratio },
    }
}
// ANCHOR_END: decide

// ANCHOR: timer
/// The smallest time step `Instant` lets you observe: the smallest non-zero step between two
/// back-to-back readings, and what one reading costs on average. Two readings can never be
/// closer than the time one reading takes, so with a fine clock (the TSC ticks about every
/// nanosecond) the step shows the cost of a reading, not the clock's own tick.
#[derive(Clone, Copy, Debug)]
pub struct TimerProbe {
    pub smallest_step: Duration,
    pub cost_per_call: Duration,
}

pub fn probe_timer(calls: u32) -> TimerProbe {
    let start = Instant::now();
    let mut previous = start;
    let mut smallest = Duration::MAX;
    for _ in 0..calls {
        let now = Instant::now();
        let step = now - previous;
        if !step.is_zero() {
            smallest = smallest.min(step);
        }
        previous = now;
    }
    TimerProbe {
        smallest_step: smallest,
        cost_per_call: start.elapsed() / calls.max(1),
    }
}
// ANCHOR_END: timer

// ANCHOR: chain
/// `steps` multiply-adds, each waiting for the one before: a fixed amount of work whose time
/// follows the CPU's clock frequency (and not memory), to watch the clock change.
pub fn dependent_chain(seed: u64, steps: u64) -> u64 {
    let mut x = seed;
    for _ in 0..steps {
        x = black_box(x)
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
    }
    x
}
// ANCHOR_END: chain

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
    fn compare_all_runs_every_variant_in_turn() {
        let mut order = String::new();
        let stats = compare_all(1, 2, 3, |i| order.push(char::from(b'a' + i as u8)));
        assert_eq!(order, "abcabcabc");
        assert_eq!(stats.len(), 3);
        assert!(stats.iter().all(|s| s.samples == 2));
    }

    fn stats(p10: f64, median: f64, p90: f64) -> Stats {
        Stats {
            median,
            min: p10,
            max: p90,
            p10,
            p90,
            samples: 3,
        }
    }

    #[test]
    fn decide_calls_a_difference_only_when_runs_agree_and_ranges_separate() {
        let a = stats(0.9, 1.0, 1.1);
        let fast = stats(0.45, 0.5, 0.55);
        assert_eq!(
            decide(&[(a, fast), (a, fast), (a, fast)]),
            Verdict::BFaster { ratio: 0.5 }
        );
        let slow = stats(1.9, 2.0, 2.1);
        assert_eq!(
            decide(&[(a, slow), (a, slow)]),
            Verdict::BSlower { ratio: 2.0 }
        );
        // one run says the other way round: no verdict
        let verdict = decide(&[(a, fast), (a, slow), (a, fast)]);
        assert!(matches!(verdict, Verdict::NoClearDifference { .. }));
        // medians differ by 5 % but the spreads overlap: no verdict
        let close = stats(0.85, 0.95, 1.05);
        assert!(matches!(
            decide(&[(a, close), (a, close)]),
            Verdict::NoClearDifference { .. }
        ));
        assert!(matches!(
            decide(&[]),
            Verdict::NoClearDifference { ratio: 1.0 }
        ));
    }

    #[test]
    fn the_timer_moves_and_costs_something() {
        let probe = probe_timer(10_000);
        assert!(
            probe.smallest_step > Duration::ZERO && probe.smallest_step < Duration::from_millis(20)
        );
        assert!(probe.cost_per_call < Duration::from_millis(1));
    }

    #[test]
    fn the_chain_is_deterministic() {
        assert_eq!(dependent_chain(7, 0), 7);
        assert_eq!(
            dependent_chain(1, 2),
            dependent_chain(dependent_chain(1, 1), 1)
        );
    }

    #[test]
    fn honest_sum_sums() {
        assert_eq!(honest_sum(&[1.0, 2.0, 3.5]), 6.5);
    }
}
