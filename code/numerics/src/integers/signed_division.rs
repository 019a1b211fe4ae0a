//! Signed division: which way the quotient rounds, which sign the remainder takes, and the one
//! division that overflows.

// ANCHOR: signed_division
/// `/` rounds toward zero and `%` takes the sign of the dividend, so that
/// `a == (a / b) * b + a % b` always holds: -7 / 2 = -3 and -7 % 2 = -1.
pub fn truncated(a: i32, b: i32) -> (i32, i32) {
    (a / b, a % b)
}

/// `div_euclid` and `rem_euclid`: the remainder is never negative (0 ≤ r < |b|) and the
/// quotient adjusts: -7 → (-4, 1). The remainder is what wrapping an index into a ring buffer
/// or a grid needs; `-1 % n` would be -1, an out-of-bounds index.
pub fn euclidean(a: i32, b: i32) -> (i32, i32) {
    (a.div_euclid(b), a.rem_euclid(b))
}

/// `i32::MIN / -1` is 2^31, which an i32 cannot hold. `/` and `%` panic on it in every build
/// (like a division by zero; overflow checks for `+` and `*` are off in release, these are
/// not). The explicit forms say what to do instead.
pub fn min_divided_by_minus_one() -> (Option<i32>, i32, (i32, bool)) {
    let (a, b) = (i32::MIN, -1);
    (a.checked_div(b), a.wrapping_div(b), a.overflowing_div(b))
}
// ANCHOR_END: signed_division

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;
    use std::panic::catch_unwind;

    #[test]
    fn division_truncates_and_remainder_follows_the_dividend() {
        assert_eq!(truncated(7, 2), (3, 1));
        assert_eq!(truncated(-7, 2), (-3, -1));
        assert_eq!(truncated(7, -2), (-3, 1));
        assert_eq!(truncated(-7, -2), (3, -1));
        for (a, b) in [(7, 2), (-7, 2), (7, -2), (-7, -2)] {
            let (q, r) = truncated(a, b);
            assert_eq!(q * b + r, a);
        }
    }

    #[test]
    fn euclidean_remainder_is_never_negative() {
        assert_eq!(euclidean(-7, 2), (-4, 1));
        assert_eq!(euclidean(7, -2), (-3, 1));
        assert_eq!(euclidean(-7, -2), (4, 1));
        assert_eq!(
            euclidean(-1, 5),
            (-1, 4),
            "index -1 of a ring of 5 is slot 4"
        );
    }

    #[test]
    fn shifting_a_negative_number_rounds_down_not_toward_zero() {
        // `>>` on a signed integer is arithmetic: it copies the sign bit and rounds toward -∞.
        assert_eq!(black_box(-7i32) >> 1, -4);
        assert_eq!(black_box(-7i32) / 2, -3);
        assert_eq!(black_box(-7i32).div_euclid(2), -4);
    }

    #[test]
    fn min_divided_by_minus_one_overflows() {
        assert_eq!(
            min_divided_by_minus_one(),
            (None, i32::MIN, (i32::MIN, true))
        );
        let quotient = catch_unwind(|| black_box(i32::MIN) / black_box(-1));
        let message = *quotient.unwrap_err().downcast::<&str>().unwrap();
        assert_eq!(message, "attempt to divide with overflow");
        let remainder = catch_unwind(|| black_box(i32::MIN) % black_box(-1));
        assert!(remainder.is_err());
        assert_eq!(i32::MIN.checked_rem(-1), None);
        assert_eq!(i32::MIN.wrapping_rem(-1), 0);
    }
}
