//! Iterators and closures, and what they compile to.
//!
//! The index loops and iterator chains below compute the same thing. The figure program
//! (`rust_basics_figures`) times each pair, in release mode, to show what the abstraction costs.

// ANCHOR: dot
/// The dot product written as an index loop, the way one writes it in C.
// Clippy's `needless_range_loop` would suggest the iterator form below; we keep the loop on
// purpose, to compare the two.
#[allow(clippy::needless_range_loop)]
pub fn dot_indexed(a: &[f32], b: &[f32]) -> f32 {
    let mut sum = 0.0;
    for i in 0..a.len() {
        sum += a[i] * b[i]; // panics if b is shorter than a
    }
    sum
}

/// The same dot product as an iterator chain: `zip` stops at the shorter slice, so there is no
/// index to check.
pub fn dot_iter(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
// ANCHOR_END: dot

// ANCHOR: dot_lanes
/// The dot product with eight independent partial sums. Floating-point addition is not
/// associative, so the compiler must keep the single sum of `dot_iter` in order, one addition
/// after another; eight sums in an array it may keep in SIMD registers and add side by side.
/// The result can differ from `dot_iter` in the last bits (the additions happen in another order).
pub fn dot_lanes(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let n = a.len().min(b.len());
    let (a, b) = (a[..n].chunks_exact(LANES), b[..n].chunks_exact(LANES));
    let tail: f32 = a
        .remainder()
        .iter()
        .zip(b.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut sums = [0.0f32; LANES];
    for (ca, cb) in a.zip(b) {
        for ((s, x), y) in sums.iter_mut().zip(ca).zip(cb) {
            *s += x * y;
        }
    }
    sums.iter().sum::<f32>() + tail
}
// ANCHOR_END: dot_lanes

// ANCHOR: axpy
/// `y ← a·x + y` with indices: every `x[i]` is bounds-checked unless the compiler can prove it
/// in range.
#[allow(clippy::needless_range_loop)]
pub fn axpy_indexed(a: f32, x: &[f32], y: &mut [f32]) {
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}

/// `y ← a·x + y` with `zip`: no indices, so no bounds checks, and the loop is free to use SIMD.
pub fn axpy_iter(a: f32, x: &[f32], y: &mut [f32]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}
// ANCHOR_END: axpy

// ANCHOR: closures
/// Returns a closure that captures `scale` and `shift` by value (`move`): it owns its copies,
/// so it can outlive this call.
pub fn affine(scale: f32, shift: f32) -> impl Fn(f32) -> f32 {
    move |x| scale * x + shift
}

/// Applies any function to every element. Generic over `F`, so each closure gets its own
/// compiled copy of this loop, with the closure's body inlined into it.
pub fn map_in_place<F: Fn(f32) -> f32>(values: &mut [f32], f: F) {
    for v in values {
        *v = f(*v);
    }
}
// ANCHOR_END: closures

// ANCHOR: fn_mut
/// Calls `visit` for each value above `threshold`. `FnMut`: the closure may change what it
/// captured, such as a counter or a `Vec` it pushes into.
pub fn for_each_above(values: &[f32], threshold: f32, mut visit: impl FnMut(usize, f32)) {
    for (i, &v) in values.iter().enumerate() {
        if v > threshold {
            visit(i, v);
        }
    }
}
// ANCHOR_END: fn_mut

// ANCHOR: linspace
/// `count` evenly spaced values from `start` to `end` inclusive, like NumPy's `linspace`.
#[derive(Clone, Debug)]
pub struct Linspace {
    start: f64,
    step: f64,
    next: usize,
    count: usize,
}

impl Linspace {
    pub fn new(start: f64, end: f64, count: usize) -> Self {
        let step = if count > 1 {
            (end - start) / (count - 1) as f64
        } else {
            0.0
        };
        Self {
            start,
            step,
            next: 0,
            count,
        }
    }
}

impl Iterator for Linspace {
    type Item = f64;

    fn next(&mut self) -> Option<f64> {
        if self.next == self.count {
            return None;
        }
        // Computed from the index, not by adding `step` repeatedly: no rounding drift.
        let value = self.start + self.step * self.next as f64;
        self.next += 1;
        Some(value)
    }

    /// An exact size lets `collect` allocate once.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.count - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Linspace {}
// ANCHOR_END: linspace

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_forms_agree() {
        let a: Vec<f32> = (0..100).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..100).map(|i| 1.0 - i as f32 * 0.01).collect();
        assert_eq!(dot_indexed(&a, &b), dot_iter(&a, &b));
        assert_eq!(dot_iter(&[], &[]), 0.0);
    }

    #[test]
    fn dot_lanes_agrees_up_to_rounding() {
        for n in [0, 1, 7, 8, 9, 100, 1001] {
            let a: Vec<f32> = (0..n).map(|i| (i % 13) as f32 * 0.25 - 1.0).collect();
            let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.5).collect();
            let (lanes, serial) = (dot_lanes(&a, &b), dot_iter(&a, &b));
            assert!(
                (lanes - serial).abs() <= 1e-4 * serial.abs().max(1.0),
                "n={n}: {lanes} vs {serial}"
            );
        }
        // Like zip, it stops at the shorter input.
        assert_eq!(dot_lanes(&[1.0; 10], &[2.0; 9]), 18.0);
    }

    // ANCHOR: should_panic
    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn dot_indexed_panics_on_a_short_second_slice() {
        dot_indexed(&[1.0, 2.0], &[1.0]);
    }
    // ANCHOR_END: should_panic

    #[test]
    fn dot_iter_stops_at_the_shorter_slice() {
        assert_eq!(dot_iter(&[1.0, 2.0], &[3.0]), 3.0);
    }

    #[test]
    fn axpy_forms_agree() {
        let x: Vec<f32> = (0..37).map(|i| i as f32).collect();
        let mut y1 = vec![1.0; 37];
        let mut y2 = y1.clone();
        axpy_indexed(2.0, &x, &mut y1);
        axpy_iter(2.0, &x, &mut y2);
        assert_eq!(y1, y2);
        assert_eq!(y1[3], 7.0);
    }

    #[test]
    fn closures_capture_and_apply() {
        let f = affine(2.0, 1.0);
        let mut v = [0.0, 1.0, 2.0];
        map_in_place(&mut v, &f);
        assert_eq!(v, [1.0, 3.0, 5.0]);
        map_in_place(&mut v, |x| x.min(4.0));
        assert_eq!(v, [1.0, 3.0, 4.0]);
    }

    #[test]
    fn fn_mut_closures_can_collect() {
        let mut hits = Vec::new();
        for_each_above(&[0.5, 2.0, -1.0, 3.0], 1.0, |i, v| hits.push((i, v)));
        assert_eq!(hits, [(1, 2.0), (3, 3.0)]);
    }

    #[test]
    fn linspace_hits_both_ends_and_knows_its_length() {
        let v: Vec<f64> = Linspace::new(0.0, 1.0, 5).collect();
        assert_eq!(v, [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(Linspace::new(3.0, 9.0, 1).collect::<Vec<_>>(), [3.0]);
        assert_eq!(Linspace::new(0.0, 1.0, 0).count(), 0);
        let mut it = Linspace::new(0.0, 1.0, 3);
        it.next();
        assert_eq!(it.len(), 2);
    }

    #[test]
    fn iterators_are_lazy() {
        let mut calls = 0;
        let values = [1.0f32, 2.0, 3.0];
        let doubled = values.iter().map(|x| {
            calls += 1;
            x * 2.0
        });
        // Nothing has run yet; `take(2)` then pulls exactly two elements through `map`.
        let firsts: Vec<f32> = doubled.take(2).collect();
        assert_eq!(firsts, [2.0, 4.0]);
        assert_eq!(calls, 2);
    }
}
