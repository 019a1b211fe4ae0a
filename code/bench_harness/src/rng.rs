//! The course's one seeded random number generator (SplitMix64), so that every benchmark, test
//! and figure sees the same "random" data on every machine, and any language can re-implement it
//! in a dozen lines. Good enough for test and benchmark data; not for anything that must be
//! unpredictable. (Why not `rand`: see the crate README.)

/// SplitMix64: one 64-bit state, one multiply-xorshift mix per number.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The top 32 bits of the next number.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in [0, 1), from the top 24 bits (exactly representable as f32).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [-scale, scale).
    pub fn symmetric(&mut self, scale: f32) -> f32 {
        (self.next_f32() * 2.0 - 1.0) * scale
    }

    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// A number in `0..bound` (`bound > 0`), by the multiply-shift method.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }
}

/// `0..n` in a random order (Fisher–Yates).
pub fn shuffled(n: usize, seed: u64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    let mut rng = SplitMix64::new(seed);
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_is_deterministic() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for bound in 1..200 {
            let x = a.below(bound);
            assert!(x < bound);
            assert_eq!(x, b.below(bound));
        }
    }

    #[test]
    fn floats_stay_in_their_ranges() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..1000 {
            let unit = rng.next_f32();
            assert!((0.0..1.0).contains(&unit));
            let s = rng.symmetric(3.0);
            assert!((-3.0..3.0).contains(&s));
        }
    }

    #[test]
    fn shuffled_is_a_permutation() {
        let mut v = shuffled(1000, 3);
        assert_ne!(v[..10], (0..10).collect::<Vec<u32>>()[..]);
        v.sort_unstable();
        assert_eq!(v, (0..1000).collect::<Vec<u32>>());
    }
}
