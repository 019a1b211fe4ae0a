//! The pipeline and branch prediction: the same sum, with a branch the CPU must guess.

use std::hint::black_box;

use crate::rng::SplitMix64;

/// `n` bytes, uniformly random: a branch on `x >= 128` is a coin flip.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

// ANCHOR: branches
/// Sums the bytes that are at least `threshold`, with a real branch. The `black_box` inside the
/// branch keeps the compiler from turning the `if` into branch-free code (which it otherwise
/// does, hiding the effect this function exists to show).
#[inline(never)]
pub fn sum_above_branchy(data: &[u8], threshold: u8) -> u64 {
    let mut sum = 0u64;
    for &x in data {
        if x >= threshold {
            sum += black_box(u64::from(x));
        }
    }
    sum
}

/// The same sum without a branch: the comparison becomes a 0 or 1 that multiplies the value,
/// so there is nothing to predict. It does the `black_box` work for every element.
#[inline(never)]
pub fn sum_above_branchless(data: &[u8], threshold: u8) -> u64 {
    let mut sum = 0u64;
    for &x in data {
        let keep = u64::from(x >= threshold);
        sum += black_box(u64::from(x) * keep);
    }
    sum
}
// ANCHOR_END: branches

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branchy_and_branchless_agree_sorted_or_not() {
        let mut data = random_bytes(5000, 2);
        let expected: u64 = data
            .iter()
            .filter(|&&x| x >= 128)
            .map(|&x| u64::from(x))
            .sum();
        assert_eq!(sum_above_branchy(&data, 128), expected);
        assert_eq!(sum_above_branchless(&data, 128), expected);
        data.sort_unstable();
        assert_eq!(sum_above_branchy(&data, 128), expected);
        assert_eq!(
            sum_above_branchless(&data, 0),
            data.iter().map(|&x| u64::from(x)).sum::<u64>()
        );
    }
}
