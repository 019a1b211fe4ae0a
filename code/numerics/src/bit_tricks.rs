//! Chapter 3: the fast inverse square root, and the bit tricks that are still worth knowing.

// ANCHOR: fast_inv_sqrt
/// 1/√x the 1999 way: halve and negate the exponent by integer arithmetic on the bits, then
/// one Newton–Raphson step. Good to about 0.18 %; only for positive normal `x`.
pub fn fast_inv_sqrt(x: f32) -> f32 {
    // The bits of a float, read as an integer, are roughly a scaled, shifted log2 of it:
    // subtracting half of them from a constant gives (roughly) the bits of x^(-1/2).
    let i = 0x5f37_59df - (x.to_bits() >> 1);
    let y = f32::from_bits(i);
    // One Newton step on f(y) = 1/y² - x.
    y * (1.5 - 0.5 * x * y * y)
}
// ANCHOR_END: fast_inv_sqrt

/// The straightforward way: one square root and one division, both correctly rounded.
pub fn inv_sqrt(x: f32) -> f32 {
    1.0 / x.sqrt()
}

// ANCHOR: rsqrt_newton
/// 1/√x of every element, four at a time, the way a compiler or a game engine does it today on
/// x86-64: the `rsqrtps` instruction (an estimate good to about 12 bits, in the SSE baseline)
/// and one Newton step, like the trick's, to about 23 bits.
pub fn rsqrt_newton(xs: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        for (o, x) in out.chunks_exact_mut(4).zip(xs.chunks_exact(4)) {
            // SAFETY: SSE is part of x86-64's baseline, so every x86-64 CPU has these
            // instructions; both chunks hold exactly 4 floats, and unaligned loads and stores
            // are allowed.
            unsafe {
                let v = _mm_loadu_ps(x.as_ptr());
                let y = _mm_rsqrt_ps(v);
                let yy_x = _mm_mul_ps(_mm_mul_ps(y, y), v);
                let step = _mm_sub_ps(_mm_set1_ps(1.5), _mm_mul_ps(_mm_set1_ps(0.5), yy_x));
                _mm_storeu_ps(o.as_mut_ptr(), _mm_mul_ps(y, step));
            }
        }
        let done = xs.len().min(out.len()) / 4 * 4;
        for (o, &x) in out[done..].iter_mut().zip(&xs[done..]) {
            *o = inv_sqrt(x);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = inv_sqrt(x);
    }
}
// ANCHOR_END: rsqrt_newton

// ANCHOR: inv_sqrt_error
/// The largest relative error of [`fast_inv_sqrt`] over every `stride`-th f32 in `[1, 4)`.
///
/// Multiplying x by 4 adds 2 to its exponent and shifts the trick's answer by exactly one
/// exponent step, so the relative error repeats with period 4: `[1, 4)` (2²⁴ floats, with
/// `stride` 1) covers every positive normal f32.
pub fn fast_inv_sqrt_max_error(stride: usize) -> f64 {
    let (lo, hi) = (1.0f32.to_bits(), 4.0f32.to_bits());
    (lo..hi)
        .step_by(stride.max(1))
        .map(|bits| {
            let x = f32::from_bits(bits);
            let exact = 1.0 / f64::from(x).sqrt();
            ((f64::from(fast_inv_sqrt(x)) - exact) / exact).abs()
        })
        .fold(0.0, f64::max)
}
// ANCHOR_END: inv_sqrt_error

// ANCHOR: popcount
/// Set bits, one at a time: the loop a bit trick replaces.
pub fn popcount_loop(mut x: u64) -> u32 {
    let mut n = 0;
    while x != 0 {
        n += (x & 1) as u32;
        x >>= 1;
    }
    n
}

/// Kernighan: `x & (x - 1)` clears the lowest set bit, so the loop runs once per set bit.
pub fn popcount_kernighan(mut x: u64) -> u32 {
    let mut n = 0;
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}
// `u64::count_ones` compiles to one POPCNT instruction where the target has it.
// ANCHOR_END: popcount

// ANCHOR: power_of_two
/// A power of two has exactly one set bit, and `x - 1` turns it off and every bit below it on.
pub fn is_power_of_two(x: u64) -> bool {
    x != 0 && x & (x - 1) == 0
}

/// Rounds up to a power of two by smearing the top set bit into every lower position.
pub fn next_power_of_two(x: u32) -> u32 {
    let mut v = x.wrapping_sub(1);
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    v.wrapping_add(1).max(1)
}
// ANCHOR_END: power_of_two

// ANCHOR: morton
/// Spreads the 16 bits of `x` to the even positions of a u32: `abcd` → `0a0b0c0d`.
/// Each step moves the upper half of each group by half the group's width.
fn spread_bits(x: u16) -> u32 {
    let mut v = u32::from(x);
    v = (v | (v << 8)) & 0x00ff_00ff;
    v = (v | (v << 4)) & 0x0f0f_0f0f;
    v = (v | (v << 2)) & 0x3333_3333;
    v = (v | (v << 1)) & 0x5555_5555;
    v
}

/// The inverse of [`spread_bits`]: gathers the even bits back together.
fn compact_bits(v: u32) -> u16 {
    let mut v = v & 0x5555_5555;
    v = (v | (v >> 1)) & 0x3333_3333;
    v = (v | (v >> 2)) & 0x0f0f_0f0f;
    v = (v | (v >> 4)) & 0x00ff_00ff;
    v = (v | (v >> 8)) & 0x0000_ffff;
    v as u16
}

/// The Z-order (Morton) index of `(x, y)`: their bits interleaved, x in the even positions.
/// Points close in 2-D get close indices, so a Z-ordered grid keeps neighbours in a cache line.
pub fn morton_encode(x: u16, y: u16) -> u32 {
    spread_bits(x) | (spread_bits(y) << 1)
}

pub fn morton_decode(code: u32) -> (u16, u16) {
    (compact_bits(code), compact_bits(code >> 1))
}
// ANCHOR_END: morton

/// The reference: interleave one bit at a time.
pub fn morton_encode_loop(x: u16, y: u16) -> u32 {
    (0..16).fold(0, |code, bit| {
        let xb = u32::from(x >> bit) & 1;
        let yb = u32::from(y >> bit) & 1;
        code | (xb << (2 * bit)) | (yb << (2 * bit + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rsqrt_with_one_newton_step_is_within_a_millionth() {
        let xs: Vec<f32> = (0..1003).map(|i| 0.001 + i as f32 * 3.7).collect();
        let mut out = vec![0.0; xs.len()];
        rsqrt_newton(&xs, &mut out);
        for (&x, &y) in xs.iter().zip(&out) {
            let exact = 1.0 / f64::from(x).sqrt();
            let err = ((f64::from(y) - exact) / exact).abs();
            assert!(err < 1e-6, "x = {x}: {y} against {exact} ({err:e})");
        }
    }

    #[test]
    fn fast_inv_sqrt_is_within_two_tenths_of_a_percent() {
        let worst = fast_inv_sqrt_max_error(1009);
        assert!(worst > 1.5e-3 && worst < 1.76e-3, "{worst}");
        assert!((fast_inv_sqrt(4.0) - 0.5).abs() < 1e-3);
        assert_eq!(inv_sqrt(4.0), 0.5);
    }

    #[test]
    fn the_error_repeats_every_factor_of_four() {
        for x in [1.1f32, 2.7, 3.9] {
            let rel = |v: f32| f64::from(fast_inv_sqrt(v)) * f64::from(v).sqrt();
            assert_eq!(rel(x), rel(x * 4.0));
            assert_eq!(rel(x), rel(x * 1024.0));
        }
    }

    #[test]
    fn powers_of_two() {
        assert!(is_power_of_two(1) && is_power_of_two(1 << 63) && !is_power_of_two(0));
        assert!(!is_power_of_two(6));
        assert_eq!(next_power_of_two(0), 1);
        assert_eq!(next_power_of_two(17), 32);
        assert_eq!(next_power_of_two(32), 32);
    }

    proptest! {
        #[test]
        fn popcounts_agree(x: u64) {
            prop_assert_eq!(popcount_loop(x), x.count_ones());
            prop_assert_eq!(popcount_kernighan(x), x.count_ones());
        }

        #[test]
        fn power_of_two_test_agrees_with_std(x: u64) {
            prop_assert_eq!(is_power_of_two(x), x.is_power_of_two());
        }

        #[test]
        fn next_power_agrees_with_std(x in 0u32..=(1 << 31)) {
            prop_assert_eq!(next_power_of_two(x), x.next_power_of_two());
        }

        #[test]
        fn morton_magic_bits_equal_the_bit_loop(x: u16, y: u16) {
            let code = morton_encode(x, y);
            prop_assert_eq!(code, morton_encode_loop(x, y));
            prop_assert_eq!(morton_decode(code), (x, y));
        }
    }
}
