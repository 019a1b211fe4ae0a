//! A parallel histogram of bytes, three ways: per-thread bins merged at the end, one shared
//! array of atomics, and one shared array behind a mutex.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::{self, ThreadId};

pub const BINS: usize = 256;
pub type Histogram = [u64; BINS];

pub fn histogram_sequential(data: &[u8]) -> Histogram {
    let mut bins = [0; BINS];
    for &b in data {
        bins[b as usize] += 1;
    }
    bins
}

/// A histogram and which thread counted each chunk: the proof that the work was split.
#[derive(Debug)]
pub struct SplitHistogram {
    pub bins: Histogram,
    pub chunk_workers: Vec<ThreadId>,
}

fn chunk_len(len: usize, threads: usize) -> usize {
    len.div_ceil(threads.max(1)).max(1)
}

// ANCHOR: per_thread
/// Each thread fills its own private bins (no sharing at all while counting), then the
/// `threads` partial histograms are added up: 256 additions per thread, once.
pub fn histogram_per_thread(data: &[u8], threads: usize) -> SplitHistogram {
    let partials: Vec<(Histogram, ThreadId)> = thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk_len(data.len(), threads))
            .map(|part| s.spawn(move || (histogram_sequential(part), thread::current().id())))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut bins = [0; BINS];
    for (partial, _) in &partials {
        for (total, count) in bins.iter_mut().zip(partial) {
            *total += count;
        }
    }
    SplitHistogram {
        bins,
        chunk_workers: partials.into_iter().map(|(_, id)| id).collect(),
    }
}
// ANCHOR_END: per_thread

// ANCHOR: shared_atomic
/// All threads increment one shared array of atomics. Correct, but every increment is a
/// locked read-modify-write on a cache line that other cores also write.
pub fn histogram_shared_atomic(data: &[u8], threads: usize) -> Histogram {
    let bins: Vec<AtomicU64> = (0..BINS).map(|_| AtomicU64::new(0)).collect();
    thread::scope(|s| {
        for part in data.chunks(chunk_len(data.len(), threads)) {
            let bins = &bins;
            s.spawn(move || {
                for &b in part {
                    // Relaxed: only the final counts matter, and scope's join orders them.
                    bins[b as usize].fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    std::array::from_fn(|i| bins[i].load(Ordering::Relaxed))
}
// ANCHOR_END: shared_atomic

// ANCHOR: mutex
/// All threads share one array behind a mutex, locking once per byte: the threads mostly wait
/// for each other.
pub fn histogram_mutex(data: &[u8], threads: usize) -> Histogram {
    let bins = Mutex::new([0u64; BINS]);
    thread::scope(|s| {
        for part in data.chunks(chunk_len(data.len(), threads)) {
            let bins = &bins;
            s.spawn(move || {
                for &b in part {
                    bins.lock().unwrap()[b as usize] += 1;
                }
            });
        }
    });
    bins.into_inner().unwrap()
}
// ANCHOR_END: mutex

// ANCHOR: rayon_fold
/// The per-thread idea in rayon's words: `fold` gives each task its own bins, `reduce` merges.
pub fn histogram_rayon(data: &[u8]) -> Histogram {
    use rayon::prelude::*;
    data.par_chunks(64 * 1024)
        .fold(
            || [0u64; BINS],
            |mut bins, part| {
                for &b in part {
                    bins[b as usize] += 1;
                }
                bins
            },
        )
        .reduce(
            || [0u64; BINS],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}
// ANCHOR_END: rayon_fold

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 3) as u8).collect()
    }

    #[test]
    fn every_variant_matches_the_sequential_histogram() {
        for n in [0, 1, 255, 10_001] {
            let data = bytes(n);
            let expected = histogram_sequential(&data);
            assert_eq!(expected.iter().sum::<u64>(), n as u64);
            for threads in [1, 2, 3, 7] {
                assert_eq!(histogram_per_thread(&data, threads).bins, expected);
                assert_eq!(histogram_shared_atomic(&data, threads), expected);
                assert_eq!(histogram_mutex(&data, threads), expected);
            }
            assert_eq!(histogram_rayon(&data), expected);
        }
    }

    // ANCHOR: split_test
    #[test]
    fn the_work_is_really_split_across_threads() {
        let data = bytes(4_000);
        let split = histogram_per_thread(&data, 4);
        // Four chunks, each counted by a different thread, none of them this test's thread.
        assert_eq!(split.chunk_workers.len(), 4);
        let distinct: std::collections::HashSet<_> = split.chunk_workers.iter().collect();
        assert_eq!(distinct.len(), 4);
        assert!(!split.chunk_workers.contains(&thread::current().id()));
    }
    // ANCHOR_END: split_test
}
