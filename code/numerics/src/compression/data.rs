//! Three kinds of data, generated with fixed seeds: what each codec is good and bad at.

/// SplitMix64: a tiny, well-mixed generator, so the data needs no dependency and never changes.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dataset {
    Ids,
    Sensor,
    Weights,
}

impl Dataset {
    pub const ALL: [Dataset; 3] = [Dataset::Ids, Dataset::Sensor, Dataset::Weights];

    pub fn name(&self) -> &'static str {
        match self {
            Dataset::Ids => "sorted ids",
            Dataset::Sensor => "sensor series",
            Dataset::Weights => "f32 weights",
        }
    }

    pub fn generate(&self, n: usize, seed: u64) -> Vec<u32> {
        match self {
            Dataset::Ids => sorted_ids(n, seed),
            Dataset::Sensor => sensor_series(n, seed),
            Dataset::Weights => weights_bits(n, seed),
        }
    }
}

// ANCHOR: datasets
/// Sorted, distinct row ids with gaps of 1 to 16: an index, a posting list, a sparse row.
pub fn sorted_ids(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = SplitMix(seed);
    let mut id = 1_000_000u32;
    (0..n)
        .map(|_| {
            id += 1 + (rng.next() % 16) as u32;
            id
        })
        .collect()
}

/// A temperature in hundredths of a degree, sampled ten times a second: a slow daily swing,
/// a little noise, and a sensor that only reports changes of 0.1 °C (so values repeat).
pub fn sensor_series(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = SplitMix(seed);
    (0..n)
        .map(|i| {
            let t = i as f64 / 864_000.0 * std::f64::consts::TAU;
            let celsius = 21.0 + 4.0 * t.sin() + 0.05 * (rng.unit() - 0.5);
            ((celsius * 10.0).round() * 10.0) as u32
        })
        .collect()
}

/// The bits of f32 weights drawn from N(0, 0.02²), as a trained layer's look: the mantissa bits
/// are noise, so no lossless integer trick can do much with them.
pub fn weights_bits(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = SplitMix(seed);
    (0..n)
        .map(|_| {
            // Box–Muller: two uniforms to one normal.
            let (u, v) = (rng.unit().max(1e-300), rng.unit());
            let normal = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
            ((0.02 * normal) as f32).to_bits()
        })
        .collect()
}
// ANCHOR_END: datasets
