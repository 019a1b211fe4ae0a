//! Overflow modes and `as` casts, as values a test can check.

// ANCHOR: overflow_modes
/// The four explicit ways to add two `u8` that may not fit, side by side.
#[derive(Debug, PartialEq, Eq)]
pub struct OverflowModes {
    /// Modulo 256: what the hardware does, and what release builds do for plain `+`.
    pub wrapping: u8,
    /// `None` on overflow: the caller decides.
    pub checked: Option<u8>,
    /// Clamped to 255: right for pixels and audio samples.
    pub saturating: u8,
    /// The wrapped value and whether it wrapped: what multi-word arithmetic needs.
    pub overflowing: (u8, bool),
}

pub fn add_u8_every_way(a: u8, b: u8) -> OverflowModes {
    OverflowModes {
        wrapping: a.wrapping_add(b),
        checked: a.checked_add(b),
        saturating: a.saturating_add(b),
        overflowing: a.overflowing_add(b),
    }
}
// ANCHOR_END: overflow_modes

// ANCHOR: as_casts
/// `as` between integers keeps the low bits (and reinterprets the sign); `as` from a float
/// saturates and sends NaN to 0. `try_from` is the checked alternative for integers.
pub fn as_casts() -> [(&'static str, i64); 6] {
    // Through black_box, so the casts happen at run time as they would on real data.
    let nan = std::hint::black_box(f32::NAN);
    [
        ("300_i32 as u8", i64::from(300_i32 as u8)),
        ("-1_i32 as u8", i64::from(-1_i32 as u8)),
        ("200_u8 as i8", i64::from(200_u8 as i8)),
        ("3.99_f32 as i32", i64::from(3.99_f32 as i32)),
        ("1e10_f32 as i32", i64::from(1e10_f32 as i32)),
        ("f32::NAN as i32", i64::from(nan as i32)),
    ]
}
// ANCHOR_END: as_casts

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_differ_only_on_overflow() {
        let fits = add_u8_every_way(100, 100);
        assert_eq!(fits.wrapping, 200);
        assert_eq!(fits.checked, Some(200));
        assert_eq!(fits.overflowing, (200, false));
        let over = add_u8_every_way(200, 100);
        assert_eq!(
            over,
            OverflowModes {
                wrapping: 44,
                checked: None,
                saturating: 255,
                overflowing: (44, true)
            }
        );
    }

    #[test]
    fn casts_truncate_or_saturate() {
        let values: Vec<i64> = as_casts().iter().map(|c| c.1).collect();
        assert_eq!(values, [44, 255, -56, 3, i64::from(i32::MAX), 0]);
        assert!(u8::try_from(300_i32).is_err());
    }
}
