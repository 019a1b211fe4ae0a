//! Pruning: setting weights to zero so that they need neither storage nor arithmetic.

use computational_graphs::tensor::Tensor2D;

use crate::QuantError;

// ANCHOR: magnitude
/// Unstructured magnitude pruning: zero the `sparsity` fraction of weights with the smallest |w|.
pub fn prune_magnitude(w: &Tensor2D, sparsity: f64) -> Tensor2D {
    let mut mags: Vec<f32> = w.data().iter().map(|x| x.abs()).collect();
    mags.sort_by(f32::total_cmp);
    let cut = ((sparsity.clamp(0.0, 1.0) * mags.len() as f64).round() as usize).min(mags.len());
    let mut out = w.clone();
    if cut == 0 {
        return out;
    }
    // Ties at the threshold: keep pruning in order until exactly `cut` values are zero.
    let threshold = mags[cut - 1];
    let mut left = cut;
    for x in out.data_mut() {
        if left > 0 && x.abs() <= threshold {
            *x = 0.0;
            left -= 1;
        }
    }
    out
}
// ANCHOR_END: magnitude

// ANCHOR: structured
/// Structured pruning: drop whole output columns (neurons) with the smallest L2 norm, so the
/// layer simply gets narrower and stays dense.
pub fn prune_columns(w: &Tensor2D, keep: usize) -> Vec<usize> {
    let (k, n) = w.shape();
    let norm = |c: usize| (0..k).map(|r| w.get(r, c).powi(2)).sum::<f32>();
    let mut cols: Vec<usize> = (0..n).collect();
    cols.sort_by(|&a, &b| norm(b).total_cmp(&norm(a)));
    cols.truncate(keep.min(n));
    cols.sort_unstable();
    cols
}
// ANCHOR_END: structured

// ANCHOR: two_four
/// 2:4 pruning along k: in every group of four consecutive weights of an output column, keep
/// the two largest |w| (the first on ties) and zero the other two.
pub fn prune_2_4(w: &Tensor2D) -> Result<Tensor2D, QuantError> {
    let (k, n) = w.shape();
    if !k.is_multiple_of(4) {
        return Err(QuantError::Shape {
            what: "2:4 pruning",
            detail: format!("k = {k} rows is not a multiple of 4: pad the layer's input"),
        });
    }
    let mut out = w.clone();
    for c in 0..n {
        for g in (0..k).step_by(4) {
            let mut idx = [g, g + 1, g + 2, g + 3];
            idx.sort_by(|&a, &b| w.get(b, c).abs().total_cmp(&w.get(a, c).abs()));
            for &r in &idx[2..] {
                out.data_mut()[r * n + c] = 0.0;
            }
        }
    }
    Ok(out)
}
// ANCHOR_END: two_four

#[cfg(test)]
mod tests {
    use super::*;
    use computational_graphs::rng::SplitMix64;

    #[test]
    fn magnitude_pruning_zeroes_exactly_the_fraction_asked() {
        let w = Tensor2D::random(10, 10, 1.0, &mut SplitMix64::new(1));
        let p = prune_magnitude(&w, 0.3);
        assert_eq!(p.data().iter().filter(|&&x| x == 0.0).count(), 30);
        let smallest_kept = p
            .data()
            .iter()
            .filter(|x| **x != 0.0)
            .fold(f32::MAX, |m, x| m.min(x.abs()));
        let largest_cut = w
            .data()
            .iter()
            .zip(p.data())
            .filter(|(_, p)| **p == 0.0)
            .fold(0.0f32, |m, (x, _)| m.max(x.abs()));
        assert!(largest_cut <= smallest_kept);
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
    }
}
