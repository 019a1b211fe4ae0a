//! How many digits a figure's table keeps. Rows hold numbers (typed rows), so a value is rounded
//! before it is written, and the chart is drawn from the rounded value: the chart drawn while
//! measuring and the one `--redraw` draws from the CSV are then the same picture.

/// `x` rounded to `places` decimals (`x · 10^places`, rounded half away from zero, divided back).
pub fn round_to(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// `x` as `{:.places$}` prints it, read back: the value a table printed with `places` decimals
/// holds (an exact tie goes to the even digit, as the formatter rounds it).
pub fn printed(x: f64, places: usize) -> f64 {
    format!("{x:.places$}").parse().unwrap_or(x)
}

/// `x` to `digits` significant digits, as `{:.e}` prints it (`digits - 1` after the point).
pub fn significant(x: f64, digits: usize) -> f64 {
    let places = digits.saturating_sub(1);
    format!("{x:.places$e}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rounding_keeps_the_digits_asked_for() {
        assert_eq!(round_to(1.23456, 2), 1.23);
        assert_eq!(round_to(-2.5, 0), -3.0);
        assert_eq!(printed(1.23456, 3), 1.235);
        assert_eq!(printed(2.0, 0), 2.0);
        assert_eq!(significant(0.000_123_456, 3), 0.000_123);
        assert_eq!(significant(123_456.0, 2), 120_000.0);
        assert_eq!(significant(1.234_567_89, 7), 1.234_568);
        assert_eq!(significant(0.0, 4), 0.0);
    }

    #[test]
    fn printed_rounds_a_tie_to_even_where_round_to_rounds_it_away_from_zero() {
        // 0.125 is exact in binary: the formatter gives 0.12, scaling gives 12.5, rounded to 13.
        // The two differ only on such ties, so a program keeps the one its tables were made with.
        assert_eq!(printed(0.125, 2), 0.12);
        assert_eq!(round_to(0.125, 2), 0.13);
        assert!(printed(f64::NAN, 2).is_nan());
    }
}
