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

// ANCHOR: ulps
/// How many representable `f32` values lie between `a` and `b` (units in the last place): 0 for
/// equal numbers, 1 for neighbours. `None` if either is NaN. A tolerance in ULPs scales with the
/// numbers by itself, where an absolute tolerance does not.
pub fn ulps_apart(a: f32, b: f32) -> Option<u32> {
    if a.is_nan() || b.is_nan() {
        return None;
    }
    // Map the bit patterns onto a line where neighbouring floats are neighbouring integers
    // (negative floats count down from zero); +0.0 and -0.0 both land on 0.
    let ordered = |x: f32| {
        let bits = x.to_bits() as i32;
        if bits < 0 {
            i32::MIN.wrapping_sub(bits)
        } else {
            bits
        }
    };
    Some(ordered(a).abs_diff(ordered(b)))
}
// ANCHOR_END: ulps

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
    fn ulps_count_floats_between() {
        assert_eq!(ulps_apart(1.0, 1.0), Some(0));
        assert_eq!(ulps_apart(1.0, 1.0 + f32::EPSILON), Some(1));
        assert_eq!(ulps_apart(0.0, -0.0), Some(0));
        assert_eq!(
            ulps_apart(-f32::MIN_POSITIVE, f32::MIN_POSITIVE),
            Some(2 * 0x0080_0000)
        );
        assert_eq!(ulps_apart(f32::NAN, 1.0), None);
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

// ANCHOR: seeded
/// Random inputs from a seed: a failure names the seed, and the same seed replays it exactly.
#[cfg(test)]
mod seeded_tests {
    use super::*;
    use bench_harness::rng::SplitMix64;

    #[test]
    fn summing_backwards_stays_within_the_rounding_bound() {
        for seed in 0..100u64 {
            let mut rng = SplitMix64::new(seed);
            let n = 1 + rng.below(1000) as usize;
            let values: Vec<f32> = (0..n).map(|_| rng.next_f32()).collect(); // in [0, 1)
            let forward: f32 = values.iter().sum();
            let backward: f32 = values.iter().rev().sum();
            // Each of the n additions rounds by at most half an ULP of the running sum, so
            // the two orders differ by at most about n · ε relative to the sum.
            let bound = n as f32 * f32::EPSILON;
            assert!(
                check_close(&[backward], &[forward], bound).is_ok(),
                "seed {seed}: n = {n}, forward {forward}, backward {backward}"
            );
        }
    }
}
// ANCHOR_END: seeded

// ANCHOR: proptest
/// Properties that must hold for every input; proptest tries hundreds of random ones and, on a
/// failure, shrinks the input to a small case (and saves it to replay first next time).
#[cfg(test)]
mod property_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_slice_is_close_to_itself(v in prop::collection::vec(-1e6f32..1e6, 0..50)) {
            prop_assert_eq!(check_close(&v, &v, 0.0), Ok(()));
        }

        #[test]
        fn closeness_is_symmetric(a in -1e6f32..1e6, b in -1e6f32..1e6, tol in 0f32..0.1) {
            prop_assert_eq!(check_close(&[a], &[b], tol).is_ok(), check_close(&[b], &[a], tol).is_ok());
        }

        #[test]
        fn neighbours_are_one_ulp_apart(x in any::<f32>().prop_filter("finite", |x| x.is_finite())) {
            let up = x.next_up();
            prop_assert_eq!(ulps_apart(x, up), Some(1));
            prop_assert_eq!(ulps_apart(up, x), Some(1));
            prop_assert_eq!(ulps_apart(x, x), Some(0));
        }
    }
}
// ANCHOR_END: proptest
