//! False sharing: two threads writing two *different* counters that sit in one cache line.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_utils::CachePadded;

// ANCHOR: counters
/// Two counters side by side: 16 bytes, almost surely in one 64-byte cache line.
#[derive(Default)]
pub struct Adjacent {
    pub counters: [AtomicU64; 2],
}

/// The same two counters, each padded and aligned to its own cache line (128 bytes on
/// x86-64, where the prefetcher pulls lines in pairs).
#[derive(Default)]
pub struct Padded {
    pub counters: [CachePadded<AtomicU64>; 2],
}
// ANCHOR_END: counters

// ANCHOR: hammer
/// Thread `i` increments counter `i`, `n` times. The threads never touch each other's data,
/// yet in `Adjacent` every increment has to pull the line back from the other core.
pub fn hammer(counters: [&AtomicU64; 2], n: u64) {
    let start = Barrier::new(2); // both threads start together, so they really overlap
    thread::scope(|s| {
        for c in counters {
            let start = &start;
            s.spawn(move || {
                start.wait();
                for _ in 0..n {
                    c.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
}
// ANCHOR_END: hammer

pub fn hammer_adjacent(n: u64) -> [u64; 2] {
    let a = Adjacent::default();
    hammer([&a.counters[0], &a.counters[1]], n);
    a.counters.map(|c| c.into_inner())
}

pub fn hammer_padded(n: u64) -> [u64; 2] {
    let p = Padded::default();
    hammer([&*p.counters[0], &*p.counters[1]], n);
    p.counters.map(|c| c.into_inner().into_inner())
}

// ANCHOR: distance
/// 64 counters in one 4096-byte-aligned block: the block starts a page, so a counter's byte
/// offset inside it says which 64-byte line (and which 128-byte pair of lines) it is in.
#[repr(C, align(4096))]
struct AlignedCounters([AtomicU64; 64]);

/// The largest distance [`hammer_at_distance`] accepts, in bytes.
pub const MAX_DISTANCE: usize = 63 * 8;

/// Two threads increment two counters `distance` bytes apart (0: both the same counter), `n`
/// times each, and the slower thread's loop time is returned. The first counter starts a line.
/// With `cpus`, thread `i` is pinned to logical CPU `cpus[i]` (Linux; elsewhere ignored).
pub fn hammer_at_distance(
    distance: usize,
    n: u64,
    cpus: Option<[usize; 2]>,
) -> Result<Duration, DistanceError> {
    if !distance.is_multiple_of(8) || distance > MAX_DISTANCE {
        return Err(DistanceError { distance });
    }
    let block = AlignedCounters(std::array::from_fn(|_| AtomicU64::new(0)));
    let (a, b) = (&block.0[0], &block.0[distance / 8]);
    // ... then the two threads increment `a` and `b` as in `hammer`, each timing its own loop.
    // ANCHOR_END: distance
    let start = Barrier::new(2);
    let elapsed = thread::scope(|s| {
        let threads: Vec<_> = [(a, 0), (b, 1)]
            .map(|(c, i)| {
                let start = &start;
                s.spawn(move || {
                    if let Some(cpus) = cpus {
                        pin_to_cpu(cpus[i]);
                    }
                    start.wait();
                    let began = Instant::now();
                    for _ in 0..n {
                        c.fetch_add(1, Ordering::Relaxed);
                    }
                    began.elapsed()
                })
            })
            .into_iter()
            .collect();
        // The slower thread's time: both ran together, so this is the wall time of the pair.
        threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .max()
            .unwrap_or_default()
    });
    let total: u64 = block.0.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    debug_assert_eq!(total, 2 * n);
    Ok(elapsed)
}

/// Pins the calling thread to one logical CPU; false if the system refused (or is not Linux).
pub fn pin_to_cpu(cpu: usize) -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET writes inside it (it checks
        // the index against the set's size), and pid 0 means the calling thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        false
    }
}

/// A distance between two `u64` counters that is not a whole number of counters, or too far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("distance {distance} bytes: use a multiple of 8 between 0 and {MAX_DISTANCE}")]
pub struct DistanceError {
    pub distance: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_count_everything() {
        assert_eq!(hammer_adjacent(10_000), [10_000, 10_000]);
        assert_eq!(hammer_padded(10_000), [10_000, 10_000]);
    }

    #[test]
    fn padding_puts_the_counters_on_different_lines() {
        let a = Adjacent::default();
        let p = Padded::default();
        let gap =
            |x: &AtomicU64, y: &AtomicU64| (y as *const _ as usize) - (x as *const _ as usize);
        assert_eq!(gap(&a.counters[0], &a.counters[1]), 8);
        assert!(gap(&p.counters[0], &p.counters[1]) >= 64);
    }

    #[test]
    fn every_distance_counts_everything_and_bad_ones_are_refused() {
        for distance in [0, 8, 56, 64, 128, 256] {
            assert!(hammer_at_distance(distance, 1_000, None).is_ok());
        }
        let block = AlignedCounters(std::array::from_fn(|_| AtomicU64::new(0)));
        assert_eq!(&block as *const _ as usize % 4096, 0);
        assert_eq!(
            hammer_at_distance(12, 10, None),
            Err(DistanceError { distance: 12 })
        );
        assert!(hammer_at_distance(MAX_DISTANCE + 8, 10, None).is_err());
        assert!(hammer_at_distance(64, 1_000, Some([0, 0])).is_ok()); // CPU 0 always exists
        assert!(
            hammer_at_distance(7, 10, None)
                .unwrap_err()
                .to_string()
                .contains("multiple of 8")
        );
    }
}
