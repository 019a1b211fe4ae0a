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
#[derive(Clone, Debug, PartialEq, Eq)]
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
