//! Hidden tests. `grade_record!` prints what the student's code returned; the grader compares it
//! with the reference solution's, outside this process.
//! The grader puts a `grade_ok!` macro above this file; each test calls it last.

use std::collections::HashMap;
use std::thread::{self, ThreadId};

use ex_m2_parallel_histogram::{
    BinSpec, Counted, Histogram, HistogramError, MAX_BINS, Slot, parallel_histogram,
};

/// SplitMix64: reproducible data without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u32 {
        (self.next() % n) as u32
    }
}

/// The reference, written independently of the exercise: bin i covers the values v with
/// i·(hi - lo) <= (v - lo)·bins < (i + 1)·(hi - lo), found by a search over the bins.
fn reference(data: &[u32], lo: u32, hi: u32, bins: usize) -> Histogram {
    let mut h = Histogram {
        counts: vec![0; bins],
        below: 0,
        above: 0,
    };
    let width = u128::from(hi - lo);
    for &v in data {
        if v < lo {
            h.below += 1;
        } else if v >= hi {
            h.above += 1;
        } else {
            let scaled = u128::from(v - lo) * bins as u128;
            let i = (0..bins)
                .position(|i| (i as u128 + 1) * width > scaled)
                .unwrap();
            h.counts[i] += 1;
        }
    }
    h
}

/// For the grader: below, above, the number of bins and up to 1024 evenly spaced counts (a
/// million bins would overflow the output the grader reads).
fn record(h: &Histogram) {
    let step = h.counts.len().div_ceil(1024).max(1);
    let sample: Vec<u64> = h.counts.iter().step_by(step).copied().collect();
    grade_record!("histogram", (h.below, h.above, h.counts.len(), sample), 0.0);
}

fn spec(lo: u32, hi: u32, bins: usize) -> BinSpec {
    BinSpec::new(lo, hi, bins).unwrap_or_else(|e| panic!("BinSpec::new({lo}, {hi}, {bins}): {e}"))
}

/// Samples taken by each thread.
fn shares(counted: &Counted) -> HashMap<ThreadId, usize> {
    let mut per_thread = HashMap::new();
    for take in &counted.takes {
        *per_thread.entry(take.thread).or_insert(0) += take.end - take.start;
    }
    per_thread
}

/// The work was split: every sample taken once (the given `Samples` refuses overlaps, so the
/// lengths adding up to `n` means everything was covered), by `min(threads, n)` workers that
/// are not this thread, each taking ⌊n / p⌋ or ⌈n / p⌉ samples.
fn assert_split(counted: &Counted, n: usize, threads: usize) {
    let taken: usize = counted.takes.iter().map(|t| t.end - t.start).sum();
    assert_eq!(
        taken, n,
        "samples taken in all (each must be taken exactly once)"
    );
    let per_thread = shares(counted);
    assert!(
        !per_thread.contains_key(&thread::current().id()),
        "the calling thread took samples itself; only workers may"
    );
    let p = threads.min(n);
    assert_eq!(
        per_thread.len(),
        p,
        "{n} samples with {threads} threads: {p} distinct workers should take samples"
    );
    if let Some(small) = n.checked_div(p) {
        let large = n.div_ceil(p);
        for (thread, &share) in &per_thread {
            assert!(
                share == small || share == large,
                "{thread:?} took {share} samples; a fair share of {n} over {p} is {small} or {large}"
            );
        }
    }
}

#[test]
fn parallel_histogram_hidden_rejects_bad_input() {
    assert_eq!(
        BinSpec::new(7, 7, 1),
        Err(HistogramError::EmptyRange { lo: 7, hi: 7 })
    );
    assert_eq!(
        BinSpec::new(9, 3, 2),
        Err(HistogramError::EmptyRange { lo: 9, hi: 3 })
    );
    assert_eq!(BinSpec::new(0, 10, 0), Err(HistogramError::NoBins));
    assert_eq!(
        BinSpec::new(0, 10, 11),
        Err(HistogramError::TooManyBins { bins: 11, max: 10 })
    );
    assert_eq!(
        BinSpec::new(0, u32::MAX, MAX_BINS + 1),
        Err(HistogramError::TooManyBins {
            bins: MAX_BINS + 1,
            max: MAX_BINS
        })
    );
    // Several problems at once: the first in the documented order.
    assert_eq!(
        BinSpec::new(5, 5, 0),
        Err(HistogramError::EmptyRange { lo: 5, hi: 5 })
    );
    assert!(
        BinSpec::new(0, 10, 10).is_ok(),
        "one value per bin is allowed"
    );
    assert!(BinSpec::new(0, u32::MAX, MAX_BINS).is_ok());
    let s = spec(0, 10, 2);
    assert_eq!(
        parallel_histogram(&[1, 2, 3], &s, 0).unwrap_err(),
        HistogramError::NoThreads
    );
    assert_eq!(
        parallel_histogram(&[], &s, 0).unwrap_err(),
        HistogramError::NoThreads
    );
    grade_ok!("parallel_histogram_hidden_rejects_bad_input");
}

#[test]
fn parallel_histogram_hidden_empty_input() {
    let s = spec(0, 100, 7);
    for threads in [1, 4] {
        let counted = parallel_histogram(&[], &s, threads).unwrap();
        record(&counted.histogram);
        assert_eq!(counted.histogram, reference(&[], 0, 100, 7));
        assert!(counted.takes.is_empty(), "nothing to take, nothing taken");
    }
    grade_ok!("parallel_histogram_hidden_empty_input");
}

#[test]
fn parallel_histogram_hidden_one_sample() {
    let s = spec(100, 200, 4);
    for (value, want) in [(150, Slot::Bin(2)), (99, Slot::Below), (200, Slot::Above)] {
        assert_eq!(s.slot(value), want, "slot({value}) with bins over 100..200");
        for threads in [1, 3] {
            let counted = parallel_histogram(&[value], &s, threads).unwrap();
            record(&counted.histogram);
            assert_eq!(counted.histogram, reference(&[value], 100, 200, 4));
            assert_split(&counted, 1, threads);
        }
    }
    grade_ok!("parallel_histogram_hidden_one_sample");
}

#[test]
fn parallel_histogram_hidden_more_threads_than_samples() {
    let s = spec(0, 10, 5);
    let data = [1, 9, 4];
    for threads in [3, 4, 16] {
        let counted = parallel_histogram(&data, &s, threads).unwrap();
        record(&counted.histogram);
        assert_eq!(counted.histogram, reference(&data, 0, 10, 5));
        assert_split(&counted, data.len(), threads);
    }
    grade_ok!("parallel_histogram_hidden_more_threads_than_samples");
}

#[test]
fn parallel_histogram_hidden_bins_at_the_edges() {
    // 7 values over 3 bins: widths 7/3, so the edges fall between integers.
    let s = spec(10, 17, 3);
    let edges = [
        (10, 0),
        (11, 0),
        (12, 0),
        (13, 1),
        (14, 1),
        (15, 2),
        (16, 2),
    ];
    for (value, bin) in edges {
        assert_eq!(
            s.slot(value),
            Slot::Bin(bin),
            "slot({value}) over 10..17 in 3 bins"
        );
    }
    // One value per bin.
    let s = spec(5, 9, 4);
    for value in 5..9 {
        assert_eq!(s.slot(value), Slot::Bin((value - 5) as usize));
    }
    // The widest range: (value - lo) · bins overflows u32 and even u64 with u32 products.
    let s = spec(0, u32::MAX, MAX_BINS);
    assert_eq!(s.slot(0), Slot::Bin(0));
    assert_eq!(s.slot(u32::MAX - 1), Slot::Bin(MAX_BINS - 1));
    assert_eq!(s.slot(u32::MAX / 2), Slot::Bin(MAX_BINS / 2 - 1));
    let data = [0, 1, 4096, u32::MAX / 2, u32::MAX - 2, u32::MAX - 1];
    let counted = parallel_histogram(&data, &s, 2).unwrap();
    record(&counted.histogram);
    assert_eq!(counted.histogram, reference(&data, 0, u32::MAX, MAX_BINS));
    grade_ok!("parallel_histogram_hidden_bins_at_the_edges");
}

#[test]
fn parallel_histogram_hidden_out_of_range_values() {
    let s = spec(1000, 2000, 10);
    let data = [0, 999, 1000, 1999, 2000, 2001, u32::MAX, 1500, 999];
    for threads in [1, 2, 4] {
        let h = parallel_histogram(&data, &s, threads).unwrap().histogram;
        assert_eq!(h.below, 3, "0, 999 and 999 are below lo = 1000");
        assert_eq!(
            h.above, 3,
            "2000, 2001 and u32::MAX are at or above hi = 2000"
        );
        record(&h);
        assert_eq!(h, reference(&data, 1000, 2000, 10));
        assert_eq!(h.total(), data.len() as u64);
    }
    // lo = 0: nothing can be below.
    let s = spec(0, 3, 3);
    let h = parallel_histogram(&[0, 3, 2, 5], &s, 2).unwrap().histogram;
    assert_eq!((h.counts, h.below, h.above), (vec![1, 0, 1], 0, 2));
    grade_ok!("parallel_histogram_hidden_out_of_range_values");
}

#[test]
fn parallel_histogram_hidden_matches_the_reference() {
    let mut rng = Rng(42);
    for n in [2, 7, 100, 1000, 4097] {
        let data: Vec<u32> = (0..n).map(|_| rng.below(1200)).collect();
        for (lo, hi, bins) in [
            (100, 1100, 10),
            (0, 1200, 1),
            (37, 1013, 97),
            (0, 1000, 1000),
        ] {
            let s = spec(lo, hi, bins);
            let want = reference(&data, lo, hi, bins);
            for threads in [1, 2, 3, 7, 16] {
                let counted = parallel_histogram(&data, &s, threads).unwrap();
                record(&counted.histogram);
                assert_eq!(
                    counted.histogram, want,
                    "{n} samples, bins {lo}..{hi} / {bins}, {threads} threads"
                );
            }
        }
    }
    grade_ok!("parallel_histogram_hidden_matches_the_reference");
}

#[test]
fn parallel_histogram_hidden_same_result_every_run() {
    let mut rng = Rng(7);
    let data: Vec<u32> = (0..50_000).map(|_| rng.below(70_000)).collect();
    let s = spec(1_000, 65_000, 64);
    let want = reference(&data, 1_000, 65_000, 64);
    for run in 0..20 {
        let got = parallel_histogram(&data, &s, 8).unwrap().histogram;
        record(&got);
        assert_eq!(got, want, "run {run} of 20 differs");
    }
    grade_ok!("parallel_histogram_hidden_same_result_every_run");
}

#[test]
fn parallel_histogram_hidden_work_is_split_fairly() {
    let mut rng = Rng(3);
    let data: Vec<u32> = (0..10_007).map(|_| rng.below(256)).collect();
    let s = spec(0, 256, 16);
    for threads in [1, 2, 3, 4, 8] {
        let counted = parallel_histogram(&data, &s, threads).unwrap();
        record(&counted.histogram);
        assert_eq!(counted.histogram, reference(&data, 0, 256, 16));
        assert_split(&counted, data.len(), threads);
    }
    grade_ok!("parallel_histogram_hidden_work_is_split_fairly");
}
