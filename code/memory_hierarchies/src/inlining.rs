//! Inlining: the same tiny function, called through a real call or pasted into the loop.

// ANCHOR: inlining
/// A hot helper the compiler must call: arguments in registers, `call`, `ret`, and, worse, the
/// loop around it cannot be vectorised because the call is opaque.
#[inline(never)]
fn scale_never_inlined(x: f32) -> f32 {
    x * 1.5 + 0.25
}

#[inline(always)]
fn scale_inlined(x: f32) -> f32 {
    x * 1.5 + 0.25
}

#[inline(never)]
pub fn apply_with_calls(values: &mut [f32]) {
    for v in values.iter_mut() {
        *v = scale_never_inlined(*v);
    }
}

#[inline(never)]
pub fn apply_inlined(values: &mut [f32]) {
    for v in values.iter_mut() {
        *v = scale_inlined(*v);
    }
}
// ANCHOR_END: inlining

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_versions_compute_the_same() {
        let mut a: Vec<f32> = (0..1001).map(|i| i as f32 * 0.5).collect();
        let mut b = a.clone();
        apply_with_calls(&mut a);
        apply_inlined(&mut b);
        assert_eq!(a, b);
        assert_eq!(a[2], 1.75);
    }
}
