//! Public tests: `cargo nextest run -p ex_m4_find_the_hot_spot`.

use ex_m4_find_the_hot_spot::{Trace, alarms};

#[test]
fn find_the_hot_spot_public_alarms_where_the_window_mean_is_above_the_threshold() {
    let trace = Trace::new(vec![1, 1, 9, 9, 1, 1]);
    // Windows of 2 ending at 1..=5 sum to 2, 10, 18, 10, 2; above 4 × 2 = 8: ends 2, 3, 4.
    assert_eq!(alarms(&trace, 2, 4), [2, 3, 4]);
    // The same answer as summing every window, on a longer trace, from far fewer reads.
    let samples: Vec<u16> = (0..2_000).map(|i| (i * 7_919 % 1_000) as u16).collect();
    let expected: Vec<usize> = (49..2_000)
        .filter(|&end| {
            samples[end - 49..=end]
                .iter()
                .map(|&x| u64::from(x))
                .sum::<u64>()
                > 25_000
        })
        .collect();
    let trace = Trace::new(samples);
    assert_eq!(alarms(&trace, 50, 500), expected);
    assert!(trace.reads() <= 2 * 2_000 + 50, "{} reads", trace.reads());
}

#[test]
fn find_the_hot_spot_public_each_reading_is_read_at_most_twice() {
    let samples: Vec<u16> = (0..1_000).map(|i| (i * 37 % 1_000) as u16).collect();
    let trace = Trace::new(samples);
    alarms(&trace, 100, 500);
    // The bound the hidden tests use: twice the trace plus one window.
    assert!(
        trace.reads() <= 2 * 1_000 + 100,
        "{} reads for 1000 readings and a window of 100",
        trace.reads()
    );
}
