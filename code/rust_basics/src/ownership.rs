//! Ownership and borrowing: who may read a value, who may change it, and for how long.
//!
//! The rule the compiler checks: at any moment a value has either any number of shared borrows
//! (`&T`, read only) or exactly one mutable borrow (`&mut T`), never both.

// ANCHOR: shared
/// Reads through a shared borrow: the caller keeps ownership, and any number of readers may look
/// at the same slice at once.
pub fn mean(values: &[f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    Some(values.iter().sum::<f32>() / values.len() as f32)
}
// ANCHOR_END: shared

// ANCHOR: mutable
/// Writes through a mutable borrow: while it lasts, nobody else can read or write `values`.
pub fn scale(values: &mut [f32], factor: f32) {
    for v in values.iter_mut() {
        *v *= factor;
    }
}
// ANCHOR_END: mutable

// ANCHOR: owned
/// Takes the vector by value (a move: three machine words, not the elements), changes it in place
/// and gives it back. No element is copied and nothing is allocated.
pub fn normalized(mut values: Vec<f32>) -> Vec<f32> {
    let total: f32 = values.iter().map(|v| v.abs()).sum();
    if total > 0.0 {
        scale(&mut values, 1.0 / total);
    }
    values
}
// ANCHOR_END: owned

// ANCHOR: returns_borrow
/// Returns a borrow *into* the input: the result may not outlive `values` (the compiler ties the
/// two lifetimes together without us writing them out).
pub fn largest(values: &[f32]) -> Option<&f32> {
    values.iter().max_by(|a, b| a.total_cmp(b))
}
// ANCHOR_END: returns_borrow

// ANCHOR: fixed_push
/// The fix for the E0502 error in the book: copy the `f32` out first, so no borrow of the vector
/// is alive when `push` (which may move the elements to a new allocation) borrows it mutably.
pub fn push_copy_of_first(values: &mut Vec<f32>) {
    if let Some(&first) = values.first() {
        values.push(first);
    }
}
// ANCHOR_END: fixed_push

// ANCHOR: split
/// Two mutable borrows of one slice at once are fine when they cannot overlap: `split_at_mut`
/// hands out disjoint halves. Adds the right half onto the left half.
pub fn fold_halves(values: &mut [f32]) {
    let mid = values.len() / 2;
    let (left, right) = values.split_at_mut(mid);
    for (l, r) in left.iter_mut().zip(right.iter()) {
        *l += *r;
    }
}
// ANCHOR_END: split

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_of_nothing_is_none() {
        assert_eq!(mean(&[]), None);
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
    }

    #[test]
    fn scale_changes_the_callers_data() {
        let mut v = vec![1.0, -2.0];
        scale(&mut v, 3.0);
        assert_eq!(v, [3.0, -6.0]);
    }

    #[test]
    fn normalized_reuses_the_allocation() {
        let v = vec![1.0, -3.0];
        let before = v.as_ptr();
        let n = normalized(v);
        assert_eq!(n, [0.25, -0.75]);
        assert_eq!(n.as_ptr(), before, "a move must not copy the heap buffer");
        assert_eq!(normalized(vec![0.0, 0.0]), [0.0, 0.0]);
    }

    #[test]
    fn largest_points_into_the_input() {
        let v = [1.0, 7.0, -2.0];
        let big = largest(&v).unwrap();
        assert_eq!(*big, 7.0);
        assert!(std::ptr::eq(big, &v[1]));
        assert_eq!(largest(&[]), None);
    }

    #[test]
    fn push_copy_of_first_appends_and_ignores_empty() {
        let mut v = vec![2.0, 3.0];
        push_copy_of_first(&mut v);
        assert_eq!(v, [2.0, 3.0, 2.0]);
        let mut empty: Vec<f32> = Vec::new();
        push_copy_of_first(&mut empty);
        assert!(empty.is_empty());
    }

    #[test]
    fn fold_halves_adds_right_onto_left() {
        let mut v = [1.0, 2.0, 10.0, 20.0, 99.0];
        fold_halves(&mut v);
        // mid = 2: left [1, 2], right [10, 20, 99]; zip stops after two pairs.
        assert_eq!(v, [11.0, 22.0, 10.0, 20.0, 99.0]);
    }
}
