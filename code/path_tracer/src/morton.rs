//! Morton codes: a point's three 10-bit grid coordinates with their bits interleaved, so that
//! sorting by the code lays points out along a Z-shaped space-filling curve and points near
//! each other in the list are near each other in space.

// ANCHOR: morton
/// Spreads the low 10 bits of `x` out to every third bit (bit i moves to bit 3i).
pub fn spread_bits(x: u32) -> u32 {
    let mut x = x & 0x3ff;
    x = (x | (x << 16)) & 0x0300_00ff;
    x = (x | (x << 8)) & 0x0300_f00f;
    x = (x | (x << 4)) & 0x030c_30c3;
    x = (x | (x << 2)) & 0x0924_9249;
    x
}

/// The 30-bit code of a point with coordinates in [0, 1]: x in the highest bit of each triple.
pub fn morton3(p: [f32; 3]) -> u32 {
    let cell = |v: f32| (v.clamp(0.0, 1.0) * 1023.0) as u32;
    (spread_bits(cell(p[0])) << 2) | (spread_bits(cell(p[1])) << 1) | spread_bits(cell(p[2]))
}
// ANCHOR_END: morton

/// `p` mapped into the unit cube spanned by `lo` and `hi` (a flat axis maps to 0).
pub fn unit(p: [f32; 3], lo: [f32; 3], hi: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|i| {
        let extent = hi[i] - lo[i];
        if extent > 0.0 {
            (p[i] - lo[i]) / extent
        } else {
            0.0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_interleave_x_highest() {
        assert_eq!(spread_bits(0b11), 0b1001);
        assert_eq!(morton3([1.0, 0.0, 0.0]), spread_bits(1023) << 2);
        assert_eq!(morton3([1.0, 1.0, 1.0]), (1 << 30) - 1);
        assert_eq!(morton3([0.0, 0.0, 0.0]), 0);
    }

    #[test]
    fn order_follows_the_z_curve() {
        // Within one octant's cell, the code grows along the curve's order: z, then y, then x.
        let step = 1.0 / 1023.0;
        let codes: Vec<u32> = [
            [0.0, 0.0, 0.0],
            [0.0, 0.0, step],
            [0.0, step, 0.0],
            [step, 0.0, 0.0],
        ]
        .iter()
        .map(|&p| morton3(p))
        .collect();
        assert_eq!(codes, vec![0, 1, 2, 4]);
    }
}
