//! Chapter 2, float precision: five ways to add a list of f32, and what order does to a sum.

use half::f16;

// ANCHOR: naive
/// Left to right in f32: each addition rounds, and the rounding errors grow with the sum.
pub fn naive(xs: &[f32]) -> f32 {
    xs.iter().fold(0.0, |acc, &x| acc + x)
}
// ANCHOR_END: naive

// ANCHOR: pairwise
/// Splits the list in halves, sums each half, adds the two: the error grows with `log2 n`
/// instead of `n`. Below 32 items it adds in a loop (as real implementations do, for speed).
pub fn pairwise(xs: &[f32]) -> f32 {
    if xs.len() <= 32 {
        return naive(xs);
    }
    let (left, right) = xs.split_at(xs.len() / 2);
    pairwise(left) + pairwise(right)
}
// ANCHOR_END: pairwise

// ANCHOR: kahan
/// Kahan: carries the low bits each addition lost in `c`, and puts them back in the next one.
pub fn kahan(xs: &[f32]) -> f32 {
    let (mut sum, mut c) = (0.0f32, 0.0f32);
    for &x in xs {
        let y = x - c;
        let t = sum + y;
        // (t - sum) is the part of y that made it into t; minus y leaves what was lost.
        c = (t - sum) - y;
        sum = t;
    }
    sum
}
// ANCHOR_END: kahan

// ANCHOR: neumaier
/// Neumaier: like Kahan, but it also handles an addend larger than the running sum, where
/// Kahan's correction itself loses the small side.
pub fn neumaier(xs: &[f32]) -> f32 {
    let (mut sum, mut c) = (0.0f32, 0.0f32);
    for &x in xs {
        let t = sum + x;
        c += if sum.abs() >= x.abs() {
            (sum - t) + x
        } else {
            (x - t) + sum
        };
        sum = t;
    }
    sum + c
}
// ANCHOR_END: neumaier

/// The reference: every f32 is exact in f64, and f64 has 29 more bits to absorb the errors.
pub fn in_f64(xs: &[f32]) -> f64 {
    xs.iter().map(|&x| f64::from(x)).sum()
}

// ANCHOR: chunked
/// How a parallel reduction adds: `chunks` partial sums (one per thread), then the partials.
/// A different thread count is a different order of additions, so a different result.
pub fn chunked(xs: &[f32], chunks: usize) -> f32 {
    let size = xs.len().div_ceil(chunks.max(1)).max(1);
    let partials: Vec<f32> = xs.chunks(size).map(naive).collect();
    naive(&partials)
}
// ANCHOR_END: chunked

// ANCHOR: f16_dot
/// A dot product of f16 vectors accumulated in f16: every product and every partial sum is
/// rounded to f16 (what a shader with an `f16` accumulator does, operation by operation).
pub fn dot_f16_accumulate_f16(a: &[f16], b: &[f16]) -> f16 {
    let mut acc = f16::ZERO;
    for (x, y) in a.iter().zip(b) {
        let product = f16::from_f32(x.to_f32() * y.to_f32());
        acc = f16::from_f32(acc.to_f32() + product.to_f32());
    }
    acc
}

/// The same dot product, f16 inputs widened and accumulated in f32.
pub fn dot_f16_accumulate_f32(a: &[f16], b: &[f16]) -> f32 {
    a.iter()
        .zip(b)
        .fold(0.0, |acc, (x, y)| acc + x.to_f32() * y.to_f32())
}
// ANCHOR_END: f16_dot

/// The relative error of `got` against `reference` (0 when both are 0).
pub fn relative_error(got: f64, reference: f64) -> f64 {
    if reference == 0.0 {
        got.abs()
    } else {
        ((got - reference) / reference).abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_million_tenths() {
        let xs = vec![0.1f32; 1 << 20];
        let exact = in_f64(&xs);
        let err = |s: f32| relative_error(f64::from(s), exact);
        // Naive loses about 3 digits; pairwise and Kahan stay near f32's rounding.
        assert!(err(naive(&xs)) > 1e-3, "{}", err(naive(&xs)));
        assert!(err(pairwise(&xs)) < 1e-5, "{}", err(pairwise(&xs)));
        assert!(err(kahan(&xs)) < 1e-7);
        // Neumaier's correction is itself a naive f32 sum of a million small errors: it drifts.
        let neumaier_err = err(neumaier(&xs));
        assert!(
            neumaier_err < err(naive(&xs)) / 10.0 && neumaier_err > 1e-6,
            "{neumaier_err}"
        );
    }

    #[test]
    fn neumaier_survives_a_large_addend_where_kahan_does_not() {
        let xs = [1.0f32, 1e8, 1.0, -1e8];
        assert_eq!(neumaier(&xs), 2.0);
        assert_eq!(kahan(&xs), 0.0);
        assert_eq!(naive(&xs), 0.0);
    }

    #[test]
    fn addition_is_not_associative() {
        let (a, b, c) = (1e8f32, -1e8f32, 1.0f32);
        assert_eq!((a + b) + c, 1.0);
        assert_eq!(a + (b + c), 0.0);
    }

    #[test]
    fn thread_count_changes_the_sum() {
        let xs: Vec<f32> = (0..100_000).map(|i| 1.0 / (1.0 + i as f32)).collect();
        let one = chunked(&xs, 1);
        let results: Vec<f32> = [1, 2, 4, 8, 16].iter().map(|&c| chunked(&xs, c)).collect();
        assert_eq!(results[0], one);
        assert!(results.iter().any(|&r| r != one), "{results:?}");
        // But each result is the same every time: the order, not chance, decides.
        assert_eq!(chunked(&xs, 8), chunked(&xs, 8));
    }

    #[test]
    fn f16_accumulation_stalls_at_2048() {
        let ones = vec![f16::ONE; 4096];
        assert_eq!(dot_f16_accumulate_f16(&ones, &ones).to_f32(), 2048.0);
        assert_eq!(dot_f16_accumulate_f32(&ones, &ones), 4096.0);
    }
}
