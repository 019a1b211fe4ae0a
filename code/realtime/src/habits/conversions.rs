//! Habit: no silent conversions. Rust has no implicit casts, but `as` is still silent about
//! what it does to a value that does not fit: integers wrap, floats saturate, NaN becomes 0.

// ANCHOR: as_cast
/// Before: the samples in a window, cast to the `u16` a buffer header wants. Two seconds at
/// 48 kHz is 96 000 samples; `as u16` keeps the low 16 bits, 30 464, and nothing complains.
pub fn window_samples_as(sample_rate_hz: u32, window_ms: u32) -> u16 {
    (u64::from(sample_rate_hz) * u64::from(window_ms) / 1000) as u16
}
// ANCHOR_END: as_cast

// ANCHOR: try_from
/// After: `try_from` says when the value does not fit, and the error says what to change.
pub fn window_samples(sample_rate_hz: u32, window_ms: u32) -> Result<u16, WindowTooLong> {
    let samples = u64::from(sample_rate_hz) * u64::from(window_ms) / 1000;
    u16::try_from(samples).map_err(|_| WindowTooLong { samples })
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{samples} samples do not fit a u16 (at most {}): shorten the window",
    u16::MAX
)]
pub struct WindowTooLong {
    pub samples: u64,
}
// ANCHOR_END: try_from

// ANCHOR: float_to_int
/// Before: a level meter's reading as a byte. `as` clamps to 0..=255 and turns NaN into 0, so
/// a broken input reads as silence.
pub fn level_as(level: f32) -> u8 {
    (level * 255.0).round() as u8
}

/// After: a level outside 0..=1, or not a number, is `None`, and the caller decides.
pub fn level(level: f32) -> Option<u8> {
    (0.0..=1.0)
        .contains(&level)
        .then(|| (level * 255.0).round() as u8)
}
// ANCHOR_END: float_to_int

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_wraps_a_long_window_silently() {
        assert_eq!(window_samples_as(48_000, 1000), 48_000);
        assert_eq!(window_samples_as(48_000, 2000), 30_464, "96 000 - 65 536");
    }

    #[test]
    fn try_from_reports_a_long_window() {
        assert_eq!(window_samples(48_000, 1000), Ok(48_000));
        let error = window_samples(48_000, 2000).unwrap_err();
        assert_eq!(error, WindowTooLong { samples: 96_000 });
        assert!(error.to_string().contains("shorten the window"));
    }

    #[test]
    fn as_saturates_floats_and_maps_nan_to_zero() {
        assert_eq!(level_as(0.5), 128);
        assert_eq!(level_as(7.0), 255);
        assert_eq!(level_as(-1.0), 0);
        assert_eq!(level_as(f32::NAN), 0);
    }

    #[test]
    fn the_checked_level_refuses_what_as_would_hide() {
        assert_eq!(level(0.5), Some(128));
        assert_eq!(level(1.0), Some(255));
        assert_eq!(level(7.0), None);
        assert_eq!(level(-1.0), None);
        assert_eq!(level(f32::NAN), None);
    }
}
