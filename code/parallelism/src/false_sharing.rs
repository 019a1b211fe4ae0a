//! False sharing: two threads writing two *different* counters that sit in one cache line.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

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
}
