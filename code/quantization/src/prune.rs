//! Pruning: setting weights to zero so that they need neither storage nor arithmetic.

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;

// ANCHOR: magnitude
/// Unstructured magnitude pruning: `false` for the `sparsity` fraction of weights with the
/// smallest |w| (rounded to whole weights; ties go to the earlier weight), `true` for the rest.
pub fn magnitude_mask(w: &Tensor2D, sparsity: f64) -> Vec<bool> {
    let len = w.data().len();
    let cut = ((sparsity.clamp(0.0, 1.0) * len as f64).round() as usize).min(len);
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| w.data()[a].abs().total_cmp(&w.data()[b].abs()));
    let mut keep = vec![true; len];
    order[..cut].iter().for_each(|&i| keep[i] = false);
    keep
}
// ANCHOR_END: magnitude

/// Zero the `sparsity` fraction of weights with the smallest |w| (see [`magnitude_mask`]).
pub fn prune_magnitude(w: &Tensor2D, sparsity: f64) -> Tensor2D {
    apply_mask(w, &magnitude_mask(w, sparsity))
}

/// `w` with every weight whose mask entry is `false` set to zero.
pub fn apply_mask(w: &Tensor2D, keep: &[bool]) -> Tensor2D {
    let mut out = w.clone();
    out.data_mut()
        .iter_mut()
        .zip(keep)
        .filter(|(_, k)| !**k)
        .for_each(|(x, _)| *x = 0.0);
    out
}

// ANCHOR: structured
/// Structured pruning: the `keep` output columns (neurons) with the largest L2 norm, in order.
/// Dropping the others makes the layer narrower and leaves it dense.
pub fn prune_columns(w: &Tensor2D, keep: usize) -> Vec<usize> {
    let (k, n) = w.shape();
    let norm = |c: usize| (0..k).map(|r| w.get(r, c).powi(2)).sum::<f32>();
    let mut cols: Vec<usize> = (0..n).collect();
    cols.sort_by(|&a, &b| norm(b).total_cmp(&norm(a)));
    cols.truncate(keep.min(n));
    cols.sort_unstable();
    cols
}

/// The same as a weight mask: whole columns off, so that `sparsity` of the weights are zero
/// (rounded to whole columns).
pub fn column_mask(w: &Tensor2D, sparsity: f64) -> Vec<bool> {
    let (k, n) = w.shape();
    let dropped = ((sparsity.clamp(0.0, 1.0) * n as f64).round() as usize).min(n);
    let kept = prune_columns(w, n - dropped);
    let mut keep = vec![false; k * n];
    for r in 0..k {
        kept.iter().for_each(|&c| keep[r * n + c] = true);
    }
    keep
}
// ANCHOR_END: structured

// ANCHOR: two_four
/// 2:4 pruning along k: in every group of four consecutive weights of an output column, keep
/// the two largest |w| (the earlier one on ties) and drop the other two.
pub fn two_four_mask(w: &Tensor2D) -> Result<Vec<bool>, QuantError> {
    let (k, n) = w.shape();
    if !k.is_multiple_of(4) {
        return Err(QuantError::Shape {
            what: "2:4 pruning",
            detail: format!("k = {k} rows is not a multiple of 4: pad the layer's input"),
        });
    }
    let mut keep = vec![true; k * n];
    for c in 0..n {
        for g in (0..k).step_by(4) {
            let mut idx = [g, g + 1, g + 2, g + 3];
            idx.sort_by(|&a, &b| w.get(b, c).abs().total_cmp(&w.get(a, c).abs()));
            idx[2..].iter().for_each(|&r| keep[r * n + c] = false);
        }
    }
    Ok(keep)
}
// ANCHOR_END: two_four

/// Zero two of every four consecutive weights of each column (see [`two_four_mask`]).
pub fn prune_2_4(w: &Tensor2D) -> Result<Tensor2D, QuantError> {
    Ok(apply_mask(w, &two_four_mask(w)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use computational_graphs::rng::SplitMix64;
    use proptest::prelude::*;

    fn random(k: usize, n: usize, seed: u64) -> Tensor2D {
        Tensor2D::random(k, n, 1.0, &mut SplitMix64::new(seed))
    }

    proptest! {
        #[test]
        fn magnitude_drops_exactly_the_fraction_and_only_the_smallest(
            k in 1usize..20, n in 1usize..20, sparsity in 0.0f64..=1.0, seed: u64
        ) {
            let w = random(k, n, seed);
            let keep = magnitude_mask(&w, sparsity);
            let dropped = keep.iter().filter(|k| !**k).count();
            prop_assert_eq!(dropped, (sparsity * (k * n) as f64).round() as usize);
            let mag = |want: bool| w.data().iter().zip(&keep).filter(move |(_, k)| **k == want).map(|(x, _)| x.abs());
            let largest_dropped = mag(false).fold(0.0f32, f32::max);
            prop_assert!(mag(true).all(|m| m >= largest_dropped));
        }

        #[test]
        fn two_four_keeps_the_two_largest_of_every_group_of_four(
            groups in 1usize..8, n in 1usize..8, seed: u64
        ) {
            let w = random(4 * groups, n, seed);
            let keep = two_four_mask(&w).unwrap();
            for c in 0..n {
                for g in 0..groups {
                    let rows = 4 * g..4 * g + 4;
                    let kept: Vec<usize> = rows.clone().filter(|&r| keep[r * n + c]).collect();
                    prop_assert_eq!(kept.len(), 2);
                    let smallest_kept = kept.iter().map(|&r| w.get(r, c).abs()).fold(f32::MAX, f32::min);
                    prop_assert!(rows.filter(|r| !kept.contains(r)).all(|r| w.get(r, c).abs() <= smallest_kept));
                }
            }
        }

        #[test]
        fn column_mask_removes_whole_columns_of_the_smallest_norm(
            k in 1usize..10, n in 1usize..20, sparsity in 0.0f64..=1.0, seed: u64
        ) {
            let w = random(k, n, seed);
            let keep = column_mask(&w, sparsity);
            let kept: Vec<usize> = (0..n).filter(|&c| keep[c]).collect();
            prop_assert_eq!(kept.len(), n - (sparsity * n as f64).round() as usize);
            prop_assert!((0..k * n).all(|i| keep[i] == keep[i % n]), "a column is all in or all out");
            let norm = |c: usize| (0..k).map(|r| w.get(r, c).powi(2)).sum::<f32>();
            let weakest_kept = kept.iter().map(|&c| norm(c)).fold(f32::MAX, f32::min);
            prop_assert!((0..n).filter(|c| !kept.contains(c)).all(|c| norm(c) <= weakest_kept));
        }
    }

    #[test]
    fn magnitude_pruning_breaks_ties_by_position_and_prunes_the_smallest_first() {
        let w = Tensor2D::from_rows(&[[1.0, 1.0, 0.5]]);
        assert_eq!(prune_magnitude(&w, 2.0 / 3.0).data(), &[0.0, 1.0, 0.0]);
    }

    #[test]
    fn two_four_keeps_two_of_every_four() {
        let w = Tensor2D::from_rows(&[[1.0], [-4.0], [3.0], [0.5], [0.0], [0.0], [2.0], [0.0]]);
        let p = prune_2_4(&w).unwrap();
        assert_eq!(p.data(), &[0.0, -4.0, 3.0, 0.0, 0.0, 0.0, 2.0, 0.0]);
        assert!(prune_2_4(&Tensor2D::zeros(6, 1)).is_err());
    }

    #[test]
    fn structured_pruning_keeps_the_strongest_columns() {
        let w = Tensor2D::from_rows(&[[0.1, 5.0, -3.0], [0.1, 0.0, 0.0]]);
        assert_eq!(prune_columns(&w, 2), vec![1, 2]);
        assert_eq!(
            column_mask(&w, 1.0 / 3.0),
            vec![false, true, true, false, true, true]
        );
    }
}
