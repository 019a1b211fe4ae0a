//! Latency by working-set size: a pointer chase in which every load depends on the one before.

use crate::rng::SplitMix64;

// ANCHOR: random_cycle
/// A random permutation of `0..n` that is one single cycle (Sattolo's algorithm): starting
/// anywhere and following `next[i]` visits all `n` slots before it comes back.
pub fn random_cycle(n: usize, seed: u64) -> Vec<usize> {
    let mut next: Vec<usize> = (0..n).collect();
    let mut rng = SplitMix64::new(seed);
    for i in (1..n).rev() {
        // Fisher–Yates would pick j in 0..=i; excluding i itself is what forces one cycle.
        let j = rng.below(i as u64) as usize;
        next.swap(i, j);
    }
    next
}
// ANCHOR_END: random_cycle

// ANCHOR: chase
/// Follows the cycle for `steps` hops and returns where it ended. The CPU cannot start a load
/// before the previous one returned its address, so the time per hop is the load latency of
/// whichever level of the hierarchy holds the array.
#[inline(never)]
pub fn chase(next: &[usize], steps: usize) -> usize {
    let mut i = 0;
    for _ in 0..steps {
        i = next[i];
    }
    i
}
// ANCHOR_END: chase

/// The length of the cycle that starts at slot 0 (equals `next.len()` for a [`random_cycle`]).
pub fn cycle_length(next: &[usize]) -> usize {
    if next.is_empty() {
        return 0;
    }
    let (mut i, mut len) = (next[0], 1);
    while i != 0 && len <= next.len() {
        i = next[i];
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_cycle_is_one_cycle_through_every_slot() {
        for n in [1, 2, 3, 10, 1000, 4097] {
            let next = random_cycle(n, 42);
            assert_eq!(cycle_length(&next), n, "n = {n}");
            let mut sorted = next.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn chase_comes_back_after_a_full_cycle() {
        let next = random_cycle(777, 1);
        assert_eq!(chase(&next, 777), 0);
        assert_eq!(chase(&next, 777 * 3), 0);
        assert_ne!(chase(&next, 5), 0);
    }
}
