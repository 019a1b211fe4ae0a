//! Data parallelism with work stealing (rayon) and without it (crossbeam, static partitions).

use rayon::prelude::*;

/// A per-item cost that the optimiser cannot remove: `rounds` steps of an integer hash.
#[inline]
pub fn work(x: u64, rounds: u32) -> u64 {
    let mut h = x;
    for _ in 0..rounds {
        h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    }
    h
}

// ANCHOR: rayon_chunks
/// Sum of `work(x)` with rayon, one task per chunk of `chunk` items. Small chunks balance the
/// load well but pay rayon's per-task cost (splitting, queueing, maybe stealing) per chunk; big
/// chunks pay it rarely but may leave a core idle at the end.
pub fn rayon_sum_chunked(data: &[u64], chunk: usize, rounds: u32) -> u64 {
    data.par_chunks(chunk.max(1))
        // Without this, rayon would still group chunks adaptively; we want one task per chunk.
        .with_max_len(1)
        .map(|part| {
            part.iter()
                .map(|&x| work(x, rounds))
                .fold(0, u64::wrapping_add)
        })
        .reduce(|| 0, u64::wrapping_add)
}
// ANCHOR_END: rayon_chunks

/// The same with a plain `par_iter`: rayon chooses how to split (adaptively).
pub fn rayon_sum(data: &[u64], rounds: u32) -> u64 {
    data.par_iter()
        .map(|&x| work(x, rounds))
        .reduce(|| 0, u64::wrapping_add)
}

pub fn sequential_sum(data: &[u64], rounds: u32) -> u64 {
    data.iter()
        .map(|&x| work(x, rounds))
        .fold(0, u64::wrapping_add)
}

// ANCHOR: crossbeam_static
/// Static partitioning: `threads` equal slices, one per thread, no stealing. No scheduling work
/// at all, which looks cheapest on paper when the items cost the same; when they don't, the
/// thread with the costly slice ends last.
pub fn crossbeam_static_sum(data: &[u64], threads: usize, rounds: u32) -> u64 {
    let chunk = data.len().div_ceil(threads.max(1)).max(1);
    crossbeam::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| {
                s.spawn(move |_| {
                    part.iter()
                        .map(|&x| work(x, rounds))
                        .fold(0, u64::wrapping_add)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .fold(0, u64::wrapping_add)
    })
    .unwrap()
}
// ANCHOR_END: crossbeam_static

// ANCHOR: uneven
/// An uneven cost: item `x` of `n` takes `1 + 256 x / n` rounds, so the last items cost about
/// 256 times the first, and the last of `t` equal slices holds almost `2/t` of all the work.
pub fn ramp_rounds(x: u64, n: u64) -> u32 {
    1 + (256 * x / n.max(1)) as u32
}

/// `work` with the ramp cost, in equal static slices (one per thread).
pub fn static_sum_ramp(data: &[u64], threads: usize) -> u64 {
    let n = data.len() as u64;
    let chunk = data.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&x| work(x, ramp_rounds(x, n)))
                        .fold(0, u64::wrapping_add)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker panicked"))
            .fold(0, u64::wrapping_add)
    })
}

/// `work` with the ramp cost, split by rayon: idle workers steal the costly end's halves.
pub fn rayon_sum_ramp(data: &[u64]) -> u64 {
    let n = data.len() as u64;
    data.par_iter()
        .map(|&x| work(x, ramp_rounds(x, n)))
        .reduce(|| 0, u64::wrapping_add)
}
// ANCHOR_END: uneven

pub fn sequential_sum_ramp(data: &[u64]) -> u64 {
    let n = data.len() as u64;
    data.iter()
        .map(|&x| work(x, ramp_rounds(x, n)))
        .fold(0, u64::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uneven_work_sums_agree() {
        let data: Vec<u64> = (0..5_003).collect();
        let expected = sequential_sum_ramp(&data);
        assert_eq!(rayon_sum_ramp(&data), expected);
        for threads in [1, 3, 8] {
            assert_eq!(static_sum_ramp(&data, threads), expected);
        }
        assert_eq!(ramp_rounds(0, 100), 1);
        assert_eq!(ramp_rounds(99, 100), 254);
    }

    #[test]
    fn all_strategies_compute_the_same_sum() {
        let data: Vec<u64> = (0..10_007).collect();
        let expected = sequential_sum(&data, 3);
        assert_eq!(rayon_sum(&data, 3), expected);
        for chunk in [1, 10, 1000, 100_000] {
            assert_eq!(rayon_sum_chunked(&data, chunk, 3), expected);
        }
        for threads in [1, 2, 5] {
            assert_eq!(crossbeam_static_sum(&data, threads, 3), expected);
        }
    }
}
