//! Hidden tests. The grader puts `grade_ok!` and `grade_record!` macros above this file; each
//! test calls `grade_ok!` last.
//!
//! Every test checks the alarms and the episodes against plain references on a `Vec`, and the
//! work: at most three operations on totals per reading, plus one. A running total meets it
//! whatever the window; summing windows again, every time or now and then, does not, and
//! neither do totals of another trace (they cannot see this trace's readings). One case is
//! so large that summing every window cannot finish within the test's time limit, whatever is
//! counted.

use ex_m4_find_the_hot_spot::{Episode, Trace, alarms, episodes};

/// The definition, on a plain slice with prefix sums: no trace, no counting, and fast enough
/// for the largest case (summing every window there would take 10¹² additions).
fn reference_alarms(samples: &[u16], window: usize, threshold: u16) -> Vec<usize> {
    if window == 0 || window > samples.len() {
        return Vec::new();
    }
    let limit = u64::from(threshold) * window as u64;
    // prefix[i] is the sum of samples[..i].
    let mut prefix = Vec::with_capacity(samples.len() + 1);
    prefix.push(0_u64);
    for &x in samples {
        prefix.push(prefix[prefix.len() - 1] + u64::from(x));
    }
    (window - 1..samples.len())
        .filter(|&end| prefix[end + 1] - prefix[end + 1 - window] > limit)
        .collect()
}

/// Runs of consecutive ends, longest first, ties by start.
fn reference_episodes(alarms: &[usize]) -> Vec<Episode> {
    let mut runs: Vec<Episode> = Vec::new();
    for &end in alarms {
        match runs.last_mut() {
            Some(run) if run.last + 1 == end => run.last = end,
            _ => runs.push(Episode {
                first: end,
                last: end,
            }),
        }
    }
    runs.sort_by_key(|run| (std::cmp::Reverse(run.len()), run.first));
    runs
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

/// Runs `alarms` and `episodes`, checks both against the references and the work against the
/// bound, and records what they returned for the grader's comparison.
fn check(label: &str, samples: Vec<u16>, window: usize, threshold: u16) {
    let expected = reference_alarms(&samples, window, threshold);
    let n = samples.len() as u64;
    let trace = Trace::new(samples);
    let got = alarms(&trace, window, threshold);
    let operations = trace.operations();
    assert_eq!(
        got, expected,
        "{label}: window {window}, threshold {threshold}"
    );
    let bound = 3 * n + 1;
    assert!(
        operations <= bound,
        "{label}: {operations} operations on totals for {n} readings with a window of \
         {window}; at most {bound} are needed (a reading entering, one leaving and one \
         comparison per step)"
    );
    let runs = episodes(&got);
    assert_eq!(runs, reference_episodes(&got), "{label}: episodes");
    grade_record!(
        "alarms",
        (label, got.len(), got.iter().sum::<usize>(), runs.len()),
        0.0
    );
}

#[test]
fn find_the_hot_spot_hidden_small_windows_on_noise() {
    for (window, threshold) in [(1, 500), (2, 500), (7, 480), (64, 510)] {
        check("noise", noise(5_000, 7, 1_000), window, threshold);
    }
    grade_ok!("find_the_hot_spot_hidden_small_windows_on_noise");
}

#[test]
fn find_the_hot_spot_hidden_a_wide_window_costs_three_operations_a_reading() {
    check("wide", noise(20_000, 11, 60_000), 2_000, 30_000);
    check(
        "wide, high threshold",
        noise(20_000, 13, 60_000),
        5_000,
        30_200,
    );
    grade_ok!("find_the_hot_spot_hidden_a_wide_window_costs_three_operations_a_reading");
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
    // The loudest readings, and windows of every width on a short trace.
    check("loud", vec![u16::MAX; 600], 100, 65_534);
    let short = noise(40, 19, 100);
    for window in 1..=40 {
        check("every width", short.clone(), window, 50);
    }
    grade_ok!("find_the_hot_spot_hidden_edges_of_the_window");
}

#[test]
fn find_the_hot_spot_hidden_episodes_longest_first_ties_by_start() {
    // Bursts of three lengths, each length several times, on a quiet floor: many ties.
    let mut samples = vec![10_u16; 3_000];
    for (start, len) in [
        (100, 40),
        (400, 80),
        (700, 40),
        (1_000, 120),
        (1_400, 80),
        (1_900, 40),
    ] {
        for x in &mut samples[start..start + len] {
            *x = 1_000;
        }
    }
    check("bursts", samples, 16, 400);
    check("noise", noise(4_000, 23, 1_000), 3, 600);
    grade_ok!("find_the_hot_spot_hidden_episodes_longest_first_ties_by_start");
}

#[test]
fn find_the_hot_spot_hidden_two_million_readings_and_a_window_of_a_million() {
    // Summing every window would take 10¹² additions, far past any time limit, whatever is
    // counted; a running total needs about 4·10⁶ operations (a fraction of a second in a debug
    // build). The alarms run on their own thread, and the test gives up after 10 s, so that a
    // slow version fails here without holding the grader to its timeout. Mean 30 000 at a
    // threshold of 30 000: alarms come and go.
    let (window, threshold) = (1_000_000, 30_000);
    let samples = noise(2_000_000, 29, 60_000);
    let expected = reference_alarms(&samples, window, threshold);
    let n = samples.len() as u64;
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let trace = Trace::new(samples);
        let got = alarms(&trace, window, threshold);
        // The receiver is gone only if the test has already failed.
        let _ = sender.send((got, trace.operations()));
    });
    let (got, operations) = receiver
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("alarms on two million readings with a window of a million took over 10 s");
    assert_eq!(got, expected, "two million readings, window {window}");
    assert!(
        operations <= 3 * n + 1,
        "{operations} operations on totals for {n} readings with a window of {window}"
    );
    let runs = episodes(&got);
    assert_eq!(
        runs,
        reference_episodes(&got),
        "two million readings: episodes"
    );
    grade_record!(
        "alarms",
        (
            "two million",
            got.len(),
            got.iter().sum::<usize>(),
            runs.len()
        ),
        0.0
    );
    grade_ok!("find_the_hot_spot_hidden_two_million_readings_and_a_window_of_a_million");
}
