//! How many digits a figure's table keeps: what the measurement supports, without the float's
//! noise. The cells are numbers (typed rows), so rounding happens before they are written.

/// `x` rounded to `places` decimals.
pub fn round_to(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// `x` to `digits` significant digits.
pub fn significant(x: f64, digits: usize) -> f64 {
    format!("{x:.*e}", digits.saturating_sub(1))
        .parse()
        .unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_the_digits_asked_for() {
        assert_eq!(round_to(1.23456, 2), 1.23);
        assert_eq!(significant(0.000_123_456, 3), 0.000_123);
        assert_eq!(significant(123_456.0, 2), 120_000.0);
        assert_eq!(significant(0.0, 4), 0.0);
    }
}
