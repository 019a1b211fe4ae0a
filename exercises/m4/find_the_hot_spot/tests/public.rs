//! Public tests: `cargo nextest run -p ex_m4_find_the_hot_spot`.

use ex_m4_find_the_hot_spot::{Episode, Trace, alarms, episodes};

#[test]
fn find_the_hot_spot_public_alarms_where_the_window_mean_is_above_the_threshold() {
    let trace = Trace::new(vec![1, 1, 9, 9, 1, 1, 9]);
    // Windows of 3 ending at 2..=6 sum to 11, 19, 19, 11, 11; above 4 × 3 = 12: ends 3 and 4.
    assert_eq!(alarms(&trace, 3, 4), [3, 4]);
    // The same answer as summing every window, on a longer trace, for far less work.
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
    assert!(
        trace.operations() <= 3 * 2_000 + 1,
        "{} operations on totals for 2000 readings and a window of 50",
        trace.operations()
    );
}

#[test]
fn find_the_hot_spot_public_episodes_from_a_parsed_recording() {
    // A blank line is skipped: 13 readings.
    let trace =
        Trace::parse("1\n1\n9\n9\n9\n\n1\n1\n1\n9\n9\n9\n9\n9\n").expect("a valid recording");
    let found = alarms(&trace, 3, 6);
    assert_eq!(found, [3, 4, 5, 9, 10, 11, 12]);
    // Eleven windows of three: summing each again takes 44 operations; a running total 34.
    assert!(
        trace.operations() <= 3 * 13 + 1,
        "{} operations",
        trace.operations()
    );
    // The run 9..=12 is longer than 3..=5, so it comes first.
    assert_eq!(
        episodes(&found),
        [
            Episode { first: 9, last: 12 },
            Episode { first: 3, last: 5 }
        ]
    );
    let error = Trace::parse("12\nabc\n")
        .err()
        .expect("line 2 is not a reading");
    assert_eq!(error.line, 2);
}
