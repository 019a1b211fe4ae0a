//! Sequential vs parallel sort.

// ANCHOR: sorts
pub fn sort_sequential(data: &mut [u64]) {
    data.sort_unstable();
}

/// rayon's parallel quicksort: each partition step runs on one thread, and the two parts it leaves
/// are sorted in parallel on different cores.
pub fn sort_parallel(data: &mut [u64]) {
    use rayon::slice::ParallelSliceMut;
    data.par_sort_unstable();
}
// ANCHOR_END: sorts

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sorts_agree() {
        let data: Vec<u64> = (0..20_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        let (mut a, mut b) = (data.clone(), data);
        sort_sequential(&mut a);
        sort_parallel(&mut b);
        assert_eq!(a, b);
        assert!(a.windows(2).all(|w| w[0] <= w[1]));
    }
}
