//! Public tests: `cargo nextest run -p ex_m2_parallel_histogram`.

use std::collections::HashMap;
use std::thread;

use ex_m2_parallel_histogram::{BinSpec, Slot, parallel_histogram};

#[test]
fn parallel_histogram_public_slots_of_a_small_range() {
    // Five bins of two values each over 10..20.
    let spec = BinSpec::new(10, 20, 5).unwrap();
    assert_eq!(spec.slot(9), Slot::Below);
    assert_eq!(spec.slot(10), Slot::Bin(0));
    assert_eq!(spec.slot(11), Slot::Bin(0));
    assert_eq!(spec.slot(12), Slot::Bin(1));
    assert_eq!(spec.slot(19), Slot::Bin(4));
    assert_eq!(spec.slot(20), Slot::Above, "hi itself is outside the range");
    assert!(
        BinSpec::new(20, 20, 1).is_err(),
        "an empty range is an error"
    );
}

#[test]
fn parallel_histogram_public_counts_a_small_example() {
    let spec = BinSpec::new(0, 4, 2).unwrap();
    let data = [0, 1, 1, 2, 3, 3, 3, 7, 4];
    let counted = parallel_histogram(&data, &spec, 2).unwrap();
    assert_eq!(counted.histogram.counts, vec![3, 4]);
    assert_eq!(counted.histogram.below, 0);
    assert_eq!(counted.histogram.above, 2, "7 and 4 are at or above hi = 4");
}

#[test]
fn parallel_histogram_public_four_threads_share_the_work() {
    let spec = BinSpec::new(0, 100, 10).unwrap();
    let data: Vec<u32> = (0..1000).map(|i| i % 100).collect();
    let counted = parallel_histogram(&data, &spec, 4).unwrap();
    assert_eq!(counted.histogram.counts, vec![100; 10]);
    // Samples taken per thread: four workers, 250 each, none of them this test's thread.
    let mut per_thread = HashMap::new();
    for take in &counted.takes {
        *per_thread.entry(take.thread).or_insert(0) += take.end - take.start;
    }
    assert!(
        !per_thread.contains_key(&thread::current().id()),
        "the calling thread counted samples itself"
    );
    let mut shares: Vec<usize> = per_thread.into_values().collect();
    shares.sort();
    assert_eq!(shares, vec![250; 4], "samples taken by each thread");
}
