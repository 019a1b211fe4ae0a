//! Bandwidth: how many bytes per second stream through each level when nothing waits on a load.

// ANCHOR: read_write
/// Reads every element once. Independent loads: the CPU keeps many in flight and the hardware
/// prefetcher runs ahead, so this measures throughput, not latency.
#[inline(never)]
pub fn read_sum(data: &[u64]) -> u64 {
    data.iter().fold(0u64, |acc, &x| acc.wrapping_add(x))
}

/// Writes every element once.
#[inline(never)]
pub fn write_fill(data: &mut [u64], value: u64) {
    data.fill(value);
}
// ANCHOR_END: read_write

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_and_write_touch_every_element() {
        let mut v = vec![0u64; 1001];
        write_fill(&mut v, 3);
        assert!(v.iter().all(|&x| x == 3));
        assert_eq!(read_sum(&v), 3003);
        assert_eq!(read_sum(&[u64::MAX, 2]), 1);
    }
}
