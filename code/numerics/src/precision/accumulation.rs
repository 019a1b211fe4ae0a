//! One f32 accumulator stops counting at 2^24: there the spacing of f32 is 2, so adding 1.0 is a
//! tie and rounds back to the even neighbour. Any accumulation that keeps each partial sum small
//! (several lanes, blocks, a tree) avoids it.

// ANCHOR: one_lane
/// One accumulator, left to right: once the sum is large, every term is rounded to a multiple
/// of the sum's spacing before it counts.
pub fn one_lane(xs: &[f32]) -> f32 {
    xs.iter().fold(0.0, |acc, &x| acc + x)
}
// ANCHOR_END: one_lane

// ANCHOR: split
/// `LANES` accumulators, term i into lane i % LANES (what a SIMD loop or a GPU's threads do):
/// each lane's sum is LANES times smaller, then the lanes are added.
pub fn lanes<const LANES: usize>(xs: &[f32]) -> f32 {
    let mut acc = [0.0f32; LANES];
    for chunk in xs.chunks(LANES) {
        for (a, &x) in acc.iter_mut().zip(chunk) {
            *a += x;
        }
    }
    acc.iter().sum()
}

/// Split accumulation (split-K on a GPU): sum each block of `block` terms on its own, then add
/// the block sums. No partial sum holds more than one block's terms or the block sums.
pub fn blocked(xs: &[f32], block: usize) -> f32 {
    let partials: Vec<f32> = xs.chunks(block.max(1)).map(one_lane).collect();
    one_lane(&partials)
}
// ANCHOR_END: split

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summation::pairwise;

    #[test]
    fn adding_one_to_2_pow_24_does_nothing() {
        let big = 16_777_216.0f32; // 2^24
        assert_eq!(big + 1.0, big);
        assert_eq!(big + 2.0, 16_777_218.0);
        assert_eq!(big - 1.0, 16_777_215.0, "below 2^24 the spacing is 1");
    }

    #[test]
    fn one_lane_counts_to_2_pow_24_and_stops() {
        // 2^24 + 2^20 ones: the exact sum 17 825 792 is an f32 (it is even).
        let ones = vec![1.0f32; (1 << 24) + (1 << 20)];
        let exact = 17_825_792.0f32;
        assert_eq!(one_lane(&ones), 16_777_216.0);
        assert_eq!(lanes::<8>(&ones), exact);
        assert_eq!(blocked(&ones, 4096), exact);
        assert_eq!(pairwise(&ones), exact);
    }
}
