//! The CPU side of every demo: deterministic inputs, the reference answer, and the comparison.

/// Inputs whose sums are exact in `f32` (quarters below 2^20), so any correct GPU matches bit
/// for bit and a single wrong element shows.
pub fn vector_add_inputs(elements: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..elements)
        .map(|i| (i % (1 << 20)) as f32 * 0.5)
        .collect();
    let b = (0..elements)
        .map(|i| ((elements - i) % (1 << 20)) as f32 * 0.25)
        .collect();
    (a, b)
}

/// The answer the GPU must give, computed by the plain CPU loop.
pub fn cpu_vector_add(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// How a GPU result compares with the CPU reference.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Check {
    /// Elements compared.
    pub checked: usize,
    /// Elements that differ, plus any missing or extra ones.
    pub mismatches: usize,
    /// The first index that differs, to start debugging from.
    pub first_mismatch: Option<usize>,
}

impl Check {
    pub fn passed(&self) -> bool {
        self.mismatches == 0
    }
}

/// Compares element by element, exactly: WGSL's `f32` addition is correctly rounded.
pub fn check(gpu: &[f32], cpu: &[f32]) -> Check {
    let mut mismatches = gpu.len().abs_diff(cpu.len());
    let mut first_mismatch = (mismatches > 0).then(|| gpu.len().min(cpu.len()));
    for (i, (g, c)) in gpu.iter().zip(cpu).enumerate() {
        if g.to_bits() != c.to_bits() {
            mismatches += 1;
            first_mismatch = Some(first_mismatch.map_or(i, |f| f.min(i)));
        }
    }
    Check {
        checked: gpu.len().max(cpu.len()),
        mismatches,
        first_mismatch,
    }
}

/// Compares element by element against a bound per element: `|gpu − cpu| ≤ bound[i]`, with
/// missing or extra elements (and NaNs) counted as mismatches.
pub fn check_within(gpu: &[f32], cpu: &[f64], bound: &[f64]) -> Check {
    let mut mismatches = gpu.len().abs_diff(cpu.len());
    let mut first_mismatch = (mismatches > 0).then(|| gpu.len().min(cpu.len()));
    for (i, ((g, c), b)) in gpu.iter().zip(cpu).zip(bound).enumerate() {
        let close = (f64::from(*g) - c).abs() <= *b;
        if !close {
            mismatches += 1;
            first_mismatch = Some(first_mismatch.map_or(i, |f| f.min(i)));
        }
    }
    Check {
        checked: gpu.len().max(cpu.len()),
        mismatches,
        first_mismatch,
    }
}

/// γ(n) = n·u / (1 − n·u): a sum of `n` products in a format with unit roundoff `u` is off
/// by at most γ(n) times the sum of the products' magnitudes, in any order of additions
/// (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1).
pub fn gamma(n: usize, unit_roundoff: f64) -> f64 {
    let nu = n as f64 * unit_roundoff;
    nu / (1.0 - nu)
}

/// Unit roundoff of f32 (round to nearest).
pub const F32_UNIT: f64 = 1.0 / (1u64 << 24) as f64;
/// Unit roundoff of f16.
pub const F16_UNIT: f64 = 1.0 / (1u64 << 11) as f64;

/// The 256-bin histogram of bytes, by the plain loop.
pub fn cpu_histogram(data: &[u8]) -> [u32; 256] {
    let mut bins = [0u32; 256];
    for &byte in data {
        bins[usize::from(byte)] += 1;
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_sums_are_exact() {
        let (a, b) = vector_add_inputs(1 << 20);
        let sum = cpu_vector_add(&a, &b);
        for (i, s) in sum.iter().enumerate().step_by(997) {
            let exact = (i % (1 << 20)) as f64 * 0.5 + (((1 << 20) - i) % (1 << 20)) as f64 * 0.25;
            assert_eq!(f64::from(*s), exact, "element {i}");
        }
    }

    #[test]
    fn check_within_uses_each_elements_bound() {
        let cpu = [1.0, 2.0, 3.0];
        assert!(check_within(&[1.1, 2.0, 2.5], &cpu, &[0.2, 0.0, 0.5]).passed());
        let off = check_within(&[1.0, 2.1, f32::NAN], &cpu, &[0.0, 0.05, 1.0]);
        assert_eq!((off.mismatches, off.first_mismatch), (2, Some(1)));
        assert_eq!(check_within(&[1.0], &cpu, &[1.0; 3]).mismatches, 2);
    }

    #[test]
    fn gamma_is_the_first_order_bound_and_more() {
        assert!(gamma(1024, F32_UNIT) > 1024.0 * F32_UNIT);
        assert!(gamma(1024, F32_UNIT) < 1.001 * 1024.0 * F32_UNIT);
        assert_eq!(cpu_histogram(&[0, 255, 255])[255], 2);
    }

    #[test]
    fn check_finds_wrong_missing_and_extra_elements() {
        let cpu = [1.0, 2.0, 3.0];
        assert!(check(&cpu, &cpu).passed());
        let wrong = check(&[1.0, 2.5, 3.0], &cpu);
        assert_eq!((wrong.mismatches, wrong.first_mismatch), (1, Some(1)));
        let short = check(&[1.0, 2.0], &cpu);
        assert_eq!((short.mismatches, short.first_mismatch), (1, Some(2)));
        let long = check(&[1.0, 2.0, 3.0, 4.0], &cpu);
        assert_eq!((long.mismatches, long.checked), (1, 4));
    }
}
