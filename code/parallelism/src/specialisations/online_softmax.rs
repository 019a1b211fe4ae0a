//! The online softmax at the heart of Flash Attention: one pass instead of two (or three).

// ANCHOR: softmax
/// The textbook way: pass 1 finds the maximum (for numerical safety), pass 2 sums the
/// exponentials, pass 3 normalises. The input is read three times.
pub fn softmax_three_pass(x: &[f32]) -> Vec<f32> {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = x.iter().map(|v| (v - max).exp()).sum();
    x.iter().map(|v| (v - max).exp() / sum).collect()
}

/// The running maximum `m` and the running sum `s` of `exp(x - m)`, updated one value at a
/// time: when a new maximum appears, the sum so far is rescaled by `exp(old_m - new_m)`.
/// Flash Attention does this per tile of scores, so it never stores the whole row.
pub fn online_max_and_sum(x: &[f32]) -> (f32, f32) {
    let (mut m, mut s) = (f32::NEG_INFINITY, 0.0f32);
    for &v in x {
        let new_m = m.max(v);
        s = s * (m - new_m).exp() + (v - new_m).exp();
        m = new_m;
    }
    (m, s)
}

pub fn softmax_online(x: &[f32]) -> Vec<f32> {
    let (m, s) = online_max_and_sum(x);
    x.iter().map(|v| (v - m).exp() / s).collect()
}

/// Two partial results merge the same way, which is what lets tiles run in parallel.
pub fn merge(a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    let m = a.0.max(b.0);
    if m == f32::NEG_INFINITY {
        return (m, 0.0);
    }
    (m, a.1 * (a.0 - m).exp() + b.1 * (b.0 - m).exp())
}
// ANCHOR_END: softmax

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn online_softmax_matches_the_three_pass_softmax() {
        let x: Vec<f32> = (0..1000)
            .map(|i| ((i * 37) % 101) as f32 * 0.3 - 10.0)
            .collect();
        let a = softmax_three_pass(&x);
        let b = softmax_online(&x);
        for (p, q) in a.iter().zip(&b) {
            assert!((p - q).abs() <= 1e-6 + 1e-4 * p, "{p} vs {q}");
        }
        assert!((b.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    }

    #[test]
    fn large_inputs_do_not_overflow() {
        let y = softmax_online(&[1000.0, 1000.0]);
        assert_eq!(y, [0.5, 0.5]);
    }

    #[test]
    fn merged_halves_equal_the_whole() {
        let x: Vec<f32> = (0..64).map(|i| (i as f32).sin() * 5.0).collect();
        let (m, s) = online_max_and_sum(&x);
        let (m2, s2) = merge(online_max_and_sum(&x[..20]), online_max_and_sum(&x[20..]));
        assert_eq!(m, m2);
        assert!((s - s2).abs() < 1e-4 * s);
    }
}
