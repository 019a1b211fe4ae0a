//! Auto-vectorisation: the same sum written so the compiler can, or cannot, use SIMD.

// ANCHOR: sums
/// One running total: float addition is not associative, so the compiler must add in this
/// exact order, one element after the other. No SIMD.
/// (`inline(never)` keeps both functions visible by name in the assembly.)
#[inline(never)]
pub fn sum_scalar(data: &[f32]) -> f32 {
    let mut total = 0.0;
    for &x in data {
        total += x;
    }
    total
}

/// Eight independent totals, one per lane: we changed the order of additions ourselves, so
/// the compiler may keep them in one 256-bit (or two 128-bit) registers and add 8 at a time.
#[inline(never)]
pub fn sum_lanes(data: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let chunks = data.chunks_exact(8);
    let tail = chunks.remainder();
    for chunk in chunks {
        for i in 0..8 {
            lanes[i] += chunk[i];
        }
    }
    lanes.iter().sum::<f32>() + tail.iter().sum::<f32>()
}
// ANCHOR_END: sums

// ANCHOR: one_chain
/// Four lanes in one register: SIMD, but every `addps` still waits for the one before it.
/// Between `sum_scalar` (one lane, one chain) and `sum_lanes` (4 lanes in each of two
/// independent registers), it separates what the width buys from what the second chain buys.
#[inline(never)]
pub fn sum_four_lanes_one_chain(data: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 4];
    let chunks = data.chunks_exact(4);
    let tail = chunks.remainder();
    for chunk in chunks {
        for i in 0..4 {
            lanes[i] += chunk[i];
        }
    }
    lanes.iter().sum::<f32>() + tail.iter().sum::<f32>()
}
// ANCHOR_END: one_chain

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sums_agree_on_exactly_representable_data() {
        // Small integers: every partial sum is exact in f32, so the order does not matter.
        for n in [0, 1, 7, 8, 9, 1001] {
            let data: Vec<f32> = (0..n).map(|i| (i % 17) as f32).collect();
            assert_eq!(sum_scalar(&data), sum_lanes(&data));
            assert_eq!(sum_scalar(&data), sum_four_lanes_one_chain(&data));
        }
    }
}
