//! Testing: unit tests next to the code, integration tests in `tests/`, doc tests in comments.
//!
//! Float results (from the GPU above all) are rarely bit-equal to a CPU reference, so tests
//! compare them with a tolerance. [`check_close`] is the helper the course uses for that.

/// Why two float slices are not close: the first difference [`check_close`] found.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum NotClose {
    #[error("got {got} values but expected {expected}: compare slices of the same length")]
    Length { got: usize, expected: usize },
    #[error("index {index}: got {got}, expected {expected}, further apart than the tolerance")]
    Value {
        index: usize,
        got: f32,
        expected: f32,
    },
}

// ANCHOR: check_close
/// Checks that `got` and `expected` have the same length and agree element by element within
/// `tolerance`, relative to the larger magnitude (or absolute, below 1.0). The error names the
/// first element that differs.
///
/// ```
/// use rust_basics::testing::check_close;
/// assert!(check_close(&[1.0, 2.0], &[1.0, 2.000_001], 1e-5).is_ok());
/// let err = check_close(&[1.0, 2.0], &[1.0, 2.5], 1e-5).unwrap_err();
/// assert!(err.to_string().starts_with("index 1: got 2, expected 2.5"));
/// ```
pub fn check_close(got: &[f32], expected: &[f32], tolerance: f32) -> Result<(), NotClose> {
    if got.len() != expected.len() {
        return Err(NotClose::Length {
            got: got.len(),
            expected: expected.len(),
        });
    }
    for (i, (&g, &e)) in got.iter().zip(expected).enumerate() {
        let scale = g.abs().max(e.abs()).max(1.0);
        let within = (g - e).abs() <= tolerance * scale; // false if either side is NaN
        if !within {
            return Err(NotClose::Value {
                index: i,
                got: g,
                expected: e,
            });
        }
    }
    Ok(())
}
// ANCHOR_END: check_close

// ANCHOR: unit_tests
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_slices_are_close() {
        assert_eq!(check_close(&[0.0, -3.5], &[0.0, -3.5], 0.0), Ok(()));
    }

    #[test]
    fn tolerance_is_relative_for_large_values() {
        assert!(check_close(&[1000.0], &[1000.5], 1e-3).is_ok());
        assert!(check_close(&[1.0], &[1.5], 1e-3).is_err());
    }

    #[test]
    fn lengths_and_nans_are_caught() {
        assert_eq!(
            check_close(&[1.0], &[1.0, 2.0], 0.1),
            Err(NotClose::Length {
                got: 1,
                expected: 2
            })
        );
        assert!(check_close(&[f32::NAN], &[f32::NAN], 0.1).is_err());
    }
}
// ANCHOR_END: unit_tests
