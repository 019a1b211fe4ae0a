//! Integer division: by a value known only at run time, and by a constant.

// ANCHOR: division_loops
/// Divides every element by `d`, a run-time value: one DIV instruction each (tens of cycles).
pub fn divide_by_variable(xs: &[u32], d: u32, out: &mut [u32]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = x / d;
    }
}

/// Divides every element by 7, a constant: the compiler replaces the division by a multiply
/// and a shift (`x * 0x2492_4925 >> 32`, with a fix-up), a few cycles, and it vectorises.
pub fn divide_by_constant_7(xs: &[u32], out: &mut [u32]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = x / 7;
    }
}

// ANCHOR_END: division_loops

// ANCHOR: divider
/// A divisor known at run time but reused many times, turned into that multiply and shift
/// once (the "magic number" method of Granlund and Montgomery, as in libdivide).
#[derive(Clone, Copy, Debug)]
pub struct Divider {
    magic: u64,
    shift: u32,
}

impl Divider {
    /// `None` for 0, which no multiplier can replace.
    pub fn new(d: u32) -> Option<Divider> {
        if d == 0 {
            return None;
        }
        // ceil(2^(32+s) / d) with s = ceil(log2 d) is exact for every u32 dividend.
        let shift = 32 - (d - 1).leading_zeros();
        let magic = ((1u128 << (32 + shift)).div_ceil(u128::from(d))) as u64;
        Some(Divider { magic, shift })
    }

    pub fn divide(&self, x: u32) -> u32 {
        ((u128::from(x) * u128::from(self.magic)) >> (32 + self.shift)) as u32
    }
}

pub fn divide_by_divider(xs: &[u32], d: &Divider, out: &mut [u32]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = d.divide(x);
    }
}
// ANCHOR_END: divider

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn all_three_agree() {
        let xs: Vec<u32> = (0..1000).map(|i| i * 4_294_967 + 13).collect();
        let (mut a, mut b, mut c) = (vec![0; 1000], vec![0; 1000], vec![0; 1000]);
        divide_by_variable(&xs, 7, &mut a);
        divide_by_constant_7(&xs, &mut b);
        divide_by_divider(&xs, &Divider::new(7).unwrap(), &mut c);
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert!(Divider::new(0).is_none());
    }

    proptest! {
        #[test]
        fn the_magic_divider_is_exact(x: u32, d in 1u32..) {
            prop_assert_eq!(Divider::new(d).unwrap().divide(x), x / d);
        }

        #[test]
        fn edge_dividends(d in 1u32..) {
            let div = Divider::new(d).unwrap();
            for x in [0, 1, d - 1, d, u32::MAX, u32::MAX - 1] {
                prop_assert_eq!(div.divide(x), x / d);
            }
        }
    }
}
