//! Hidden tests. The grader puts `grade_ok!` and `grade_record!` macros above this file; each
//! test calls `grade_ok!` last.
//!
//! Every test checks both the alarms (against a plain reference on a `Vec`) and the reads:
//! at most twice the trace plus one window, which a running sum meets and any scheme that
//! sums windows again (every time, or now and then) does not.

use ex_m4_find_the_hot_spot::{Trace, alarms};

/// The definition, on a plain slice: no trace, no counting.
fn reference(samples: &[u16], window: usize, threshold: u16) -> Vec<usize> {
    if window == 0 || window > samples.len() {
        return Vec::new();
    }
    let limit = u64::from(threshold) * window as u64;
    (window - 1..samples.len())
        .filter(|&end| {
            let sum: u64 = samples[end + 1 - window..=end]
                .iter()
                .map(|&x| u64::from(x))
                .sum();
            sum > limit
        })
        .collect()
}

fn noise(len: usize, seed: u32, spread: u32) -> Vec<u16> {
    let mut x = seed.max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % spread) as u16
        })
        .collect()
}

/// Runs `alarms`, checks it against the reference and the read bound, and records what it
/// returned (its length and the sum of its indices) for the grader's comparison.
fn check(label: &str, samples: Vec<u16>, window: usize, threshold: u16) {
    let expected = reference(&samples, window, threshold);
    let n = samples.len() as u64;
    let trace = Trace::new(samples);
    let got = alarms(&trace, window, threshold);
    assert_eq!(
        got, expected,
        "{label}: window {window}, threshold {threshold}"
    );
    let bound = 2 * n + window.min(n as usize) as u64;
    assert!(
        trace.reads() <= bound,
        "{label}: {} reads of {n} readings with a window of {window}; at most {bound} are needed \
         (each reading entering and leaving the window once)",
        trace.reads()
    );
    grade_record!("alarms", (label, got.len(), got.iter().sum::<usize>()), 0.0);
}

#[test]
fn find_the_hot_spot_hidden_small_windows_on_noise() {
    for (window, threshold) in [(1, 500), (2, 500), (7, 480), (64, 510)] {
        check("noise", noise(5_000, 7, 1_000), window, threshold);
    }
    grade_ok!("find_the_hot_spot_hidden_small_windows_on_noise");
}

#[test]
fn find_the_hot_spot_hidden_a_wide_window_reads_each_sample_at_most_twice() {
    check("wide", noise(20_000, 11, 60_000), 2_000, 30_000);
    check(
        "wide, high threshold",
        noise(20_000, 13, 60_000),
        5_000,
        30_200,
    );
    grade_ok!("find_the_hot_spot_hidden_a_wide_window_reads_each_sample_at_most_twice");
}

#[test]
fn find_the_hot_spot_hidden_edges_of_the_window() {
    // A window as long as the trace, longer, of one reading, and of zero; an empty trace.
    check("whole", noise(300, 3, 100), 300, 49);
    check("longer", noise(300, 3, 100), 301, 0);
    check("one", vec![0, 5, 3, 5, 6], 1, 5);
    check("zero", noise(10, 5, 10), 0, 0);
    check("empty", Vec::new(), 3, 0);
    // Equality is not above: a mean exactly at the threshold raises no alarm.
    check("flat", vec![4; 50], 5, 4);
    grade_ok!("find_the_hot_spot_hidden_edges_of_the_window");
}

#[test]
fn find_the_hot_spot_hidden_sums_do_not_overflow() {
    // 70 000 readings of 65 535 sum to more than u32::MAX: a u32 running sum wraps.
    let mut samples = vec![u16::MAX; 70_000];
    samples.extend(noise(2_000, 17, 65_536));
    check("loud", samples, 66_000, 65_534);
    grade_ok!("find_the_hot_spot_hidden_sums_do_not_overflow");
}
