//! Branchy vs branchless code on data the branch predictor cannot guess.

// ANCHOR: filter
/// Keeps the values below `threshold`. One conditional branch per element: cheap when the
/// predictor guesses right (sorted data); each wrong guess (random data) throws away the work the
/// core had started past the branch.
pub fn filter_branchy(data: &[u32], threshold: u32, out: &mut Vec<u32>) {
    out.clear();
    for &x in data {
        if x < threshold {
            out.push(x);
        }
    }
}

/// The same without a data-dependent branch: always write the value, then advance the end of
/// the output by 0 or 1. The work per element is fixed, whatever the data.
pub fn filter_branchless(data: &[u32], threshold: u32, out: &mut Vec<u32>) {
    out.clear();
    out.resize(data.len(), 0);
    let mut n = 0;
    for &x in data {
        out[n] = x;
        n += usize::from(x < threshold);
    }
    out.truncate(n);
}
// ANCHOR_END: filter

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_filters_keep_the_same_values_in_order() {
        let data: Vec<u32> = (0..1000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % 100)
            .collect();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for t in [0, 1, 50, 100, 1000] {
            filter_branchy(&data, t, &mut a);
            filter_branchless(&data, t, &mut b);
            assert_eq!(a, b);
        }
        filter_branchless(&[], 5, &mut b);
        assert!(b.is_empty());
    }
}
