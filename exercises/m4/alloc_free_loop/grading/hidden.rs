//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m4_alloc_free_loop::{FrameError, TopK};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Allocations (and reallocations) made while `f` runs, counted by dhat. Each test that counts
/// starts a profiler first; nextest runs every test in its own process, so they never overlap.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = dhat::HeapStats::get().total_blocks;
    f();
    dhat::HeapStats::get().total_blocks - before
}

fn profiler() -> dhat::Profiler {
    dhat::Profiler::builder().testing().build()
}

/// A frame of logits; some equal values, so that ties happen.
fn frame(seed: u64, len: usize) -> Vec<f32> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) % 64) as f32 * 0.25 - 8.0
        })
        .collect()
}

fn reference(logits: &[f32], k: usize) -> (Vec<usize>, Vec<f64>) {
    let m = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = logits.iter().map(|&x| f64::from(x - m).exp()).collect();
    let s: f64 = e.iter().sum();
    let p: Vec<f64> = e.iter().map(|v| v / s).collect();
    let mut idx: Vec<usize> = (0..logits.len()).collect();
    idx.sort_by(|&a, &b| logits[b].partial_cmp(&logits[a]).unwrap().then(a.cmp(&b)));
    idx.truncate(k);
    (idx, p)
}

#[test]
fn alloc_free_loop_hidden_matches_a_reference() {
    for (seed, len, k) in [
        (1, 10, 3),
        (2, 1000, 5),
        (3, 7, 7),
        (4, 5, 9),
        (5, 333, 1),
        (6, 64, 64),
    ] {
        let logits = frame(seed, len);
        let mut top = TopK::new(1000, k);
        let got = top.step(&logits).unwrap().to_vec();
        let (want, p) = reference(&logits, k);
        assert_eq!(got, want, "seed {seed}, len {len}, k {k}");
        assert_eq!(top.probabilities().len(), len);
        for (a, b) in top.probabilities().iter().zip(&p) {
            assert!((f64::from(*a) - b).abs() < 1e-5);
        }
    }
    grade_ok!("alloc_free_loop_hidden_matches_a_reference");
}

#[test]
fn alloc_free_loop_hidden_large_logits_do_not_overflow() {
    let mut top = TopK::new(4, 2);
    let got = top.step(&[1000.0, 999.0, -1000.0, 998.0]).unwrap().to_vec();
    assert_eq!(got, [0, 1]);
    assert!(top.probabilities().iter().all(|p| p.is_finite()));
    assert!((top.probabilities()[0] - 0.665_240_9).abs() < 1e-5);
    grade_ok!("alloc_free_loop_hidden_large_logits_do_not_overflow");
}

#[test]
fn alloc_free_loop_hidden_no_allocation_in_steady_state() {
    let _profiler = profiler();
    let mut top = TopK::new(4096, 10);
    top.step(&frame(0, 4096)).unwrap();
    let frames: Vec<Vec<f32>> = (1..20)
        .map(|s| frame(s, 64 + (s as usize * 211) % 4000))
        .collect();
    // dhat counts every thread of the process, and the test harness's own thread may allocate
    // while a loaded machine runs this one: the fewest allocations over three passes is the
    // loop's own count (a loop that allocates does so in every pass).
    let n = (0..3)
        .map(|_| {
            allocations(|| {
                for f in &frames {
                    std::hint::black_box(top.step(f).unwrap());
                }
            })
        })
        .min()
        .unwrap_or(0);
    assert_eq!(n, 0, "{n} allocations in {} frames", frames.len());
    grade_ok!("alloc_free_loop_hidden_no_allocation_in_steady_state");
}

#[test]
fn alloc_free_loop_hidden_the_first_frame_is_already_free() {
    let _profiler = profiler();
    // Everything is made in new: even the first frame, at full length, allocates nothing.
    let logits = frame(9, 2048);
    // Three fresh TopKs, each counted on its first step: the fewest is the step's own count
    // (another thread of the process may allocate during one pass, never less).
    let mut tops: Vec<TopK> = (0..3).map(|_| TopK::new(2048, 16)).collect();
    let n = tops
        .iter_mut()
        .map(|top| {
            allocations(|| {
                std::hint::black_box(top.step(&logits).unwrap());
            })
        })
        .min()
        .unwrap_or(0);
    assert_eq!(n, 0, "the first step allocated {n} times");
    grade_ok!("alloc_free_loop_hidden_the_first_frame_is_already_free");
}

#[test]
fn alloc_free_loop_hidden_errors_and_no_allocation_for_them() {
    let _profiler = profiler();
    let mut top = TopK::new(8, 3);
    top.step(&[1.0, 2.0]).unwrap();
    let long = vec![0.0; 9];
    // The fewest over three passes, as above.
    let n = (0..3)
        .map(|_| {
            allocations(|| {
                assert_eq!(top.step(&[]).unwrap_err(), FrameError::Empty);
                assert_eq!(
                    top.step(&long).unwrap_err(),
                    FrameError::TooLong { len: 9, max_len: 8 }
                );
            })
        })
        .min()
        .unwrap_or(0);
    assert_eq!(n, 0, "refused frames allocated {n} times");
    // A refused frame leaves the last good one's probabilities.
    assert_eq!(top.probabilities().len(), 2);
    grade_ok!("alloc_free_loop_hidden_errors_and_no_allocation_for_them");
}

#[test]
fn alloc_free_loop_hidden_k_zero_and_k_above_len() {
    let mut top = TopK::new(16, 0);
    assert!(top.step(&[1.0, 2.0]).unwrap().is_empty());
    let mut top = TopK::new(16, 10);
    assert_eq!(top.step(&[1.0, 3.0, 2.0]).unwrap(), [1, 2, 0]);
    grade_ok!("alloc_free_loop_hidden_k_zero_and_k_above_len");
}
