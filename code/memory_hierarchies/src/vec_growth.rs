//! Dynamic arrays: how a `Vec` grows, what `reserve` saves, and stack versus heap scratch space.

use std::hint::black_box;

// ANCHOR: growth
/// Pushes `n` elements into an empty `Vec` and records every capacity it passed through. Each
/// change of capacity is a reallocation: a new block, a copy of everything so far, a free.
pub fn capacities_while_pushing(n: usize) -> Vec<usize> {
    let mut v: Vec<u64> = Vec::new();
    let mut seen = vec![v.capacity()];
    for i in 0..n as u64 {
        v.push(i);
        if v.capacity() != *seen.last().unwrap_or(&0) {
            seen.push(v.capacity());
        }
    }
    seen
}

/// Builds a `Vec` of `n` elements by pushing, letting it grow.
#[inline(never)]
pub fn push_growing(n: usize) -> Vec<u64> {
    let mut v = Vec::new();
    for i in 0..n as u64 {
        v.push(i);
    }
    v
}

/// The same, with the final size reserved up front: one allocation, no copies.
#[inline(never)]
pub fn push_reserved(n: usize) -> Vec<u64> {
    let mut v = Vec::with_capacity(n);
    for i in 0..n as u64 {
        v.push(i);
    }
    v
}
// ANCHOR_END: growth

// ANCHOR: scratch
/// Uses a 16-element scratch array on the stack in every iteration: "allocating" it is moving
/// the stack pointer, which the compiler does once for the whole function.
#[inline(never)]
pub fn scratch_on_stack(iterations: usize) -> f32 {
    let mut total = 0.0;
    for i in 0..iterations {
        let mut scratch = [0.0f32; 16];
        fill_and_sum(black_box(&mut scratch), i, &mut total);
    }
    total
}

/// The same work with a fresh heap allocation per iteration (`black_box` stops the optimiser
/// from removing the allocation, which it is allowed to do).
#[inline(never)]
pub fn scratch_on_heap(iterations: usize) -> f32 {
    let mut total = 0.0;
    for i in 0..iterations {
        let mut scratch = vec![0.0f32; 16];
        fill_and_sum(black_box(&mut scratch), i, &mut total);
    }
    total
}

/// One heap allocation, reused by every iteration.
#[inline(never)]
pub fn scratch_reused(iterations: usize) -> f32 {
    let mut total = 0.0;
    let mut scratch = vec![0.0f32; 16];
    for i in 0..iterations {
        scratch.fill(0.0);
        fill_and_sum(black_box(&mut scratch), i, &mut total);
    }
    total
}

fn fill_and_sum(scratch: &mut [f32], i: usize, total: &mut f32) {
    for (k, s) in scratch.iter_mut().enumerate() {
        *s += (i ^ k) as f32;
    }
    *total += scratch.iter().sum::<f32>();
}
// ANCHOR_END: scratch

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_grows_geometrically() {
        let caps = capacities_while_pushing(10_000);
        assert_eq!(caps[0], 0);
        assert!(*caps.last().unwrap() >= 10_000);
        assert!(caps.windows(2).all(|w| w[1] >= 2 * w[0]), "{caps:?}");
        // Doubling: about log2(10 000) ≈ 14 reallocations, not 10 000.
        assert!(caps.len() < 20, "{caps:?}");
    }

    #[test]
    fn both_push_loops_build_the_same_vec() {
        let (a, b) = (push_growing(1000), push_reserved(1000));
        assert_eq!(a, b);
        assert_eq!(b.capacity(), 1000);
        assert_eq!(a[999], 999);
    }

    #[test]
    fn scratch_variants_compute_the_same() {
        let s = scratch_on_stack(100);
        assert_eq!(s, scratch_on_heap(100));
        assert_eq!(s, scratch_reused(100));
        assert!(s > 0.0);
    }
}
