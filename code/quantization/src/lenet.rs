//! LeNet-5 (LeCun et al., 1998) on the CPU in plain Rust: the smallest classic image
//! classifier, to count what a model costs (parameters, bytes, FLOPs) and to time it.
//!
//! The layers follow the paper's shapes (32×32 input, C1 6@5×5, S2, C3 16@5×5, S4, C5 120,
//! F6 84, 10 outputs) with the common modern choices of ReLU and 2×2 max pooling. Weights are
//! seeded random: the architecture, not a trained classifier.

use computational_graphs::rng::SplitMix64;

/// A convolution's or dense layer's weights: `out × (in·k·k)` row-major, then `out` biases.
struct Layer {
    out: usize,
    fan_in: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Layer {
    fn new(out: usize, fan_in: usize, rng: &mut SplitMix64) -> Self {
        let scale = (2.0 / fan_in as f32).sqrt();
        let weights = (0..out * fan_in)
            .map(|_| rng.symmetric(1.0) * scale)
            .collect();
        let bias = (0..out).map(|_| rng.symmetric(0.01)).collect();
        Self {
            out,
            fan_in,
            weights,
            bias,
        }
    }

    fn parameters(&self) -> usize {
        self.weights.len() + self.bias.len()
    }

    /// `columns` holds `positions` columns of `fan_in` values each (im2col, position-major);
    /// the result is channel-major: `out × positions`, ReLU applied when asked.
    fn apply(&self, columns: &[f32], positions: usize, relu: bool) -> Vec<f32> {
        let mut y = vec![0.0; self.out * positions];
        for (o, row) in self.weights.chunks_exact(self.fan_in).enumerate() {
            for p in 0..positions {
                let col = &columns[p * self.fan_in..(p + 1) * self.fan_in];
                let s: f32 = row.iter().zip(col).map(|(w, x)| w * x).sum::<f32>() + self.bias[o];
                y[o * positions + p] = if relu { s.max(0.0) } else { s };
            }
        }
        y
    }
}

// ANCHOR: im2col
/// Unfolds a `channels × size × size` image into one column of `channels·k·k` values per
/// output position (valid convolution, stride 1), so that a convolution becomes a matrix product.
pub fn im2col(image: &[f32], channels: usize, size: usize, k: usize) -> Vec<f32> {
    let out = size - k + 1;
    let mut columns = Vec::with_capacity(out * out * channels * k * k);
    for y in 0..out {
        for x in 0..out {
            for c in 0..channels {
                for dy in 0..k {
                    let row = c * size * size + (y + dy) * size + x;
                    columns.extend_from_slice(&image[row..row + k]);
                }
            }
        }
    }
    columns
}

/// 2×2 max pooling with stride 2 of a `channels × size × size` image.
pub fn max_pool_2x2(image: &[f32], channels: usize, size: usize) -> Vec<f32> {
    let half = size / 2;
    let mut out = Vec::with_capacity(channels * half * half);
    for c in 0..channels {
        let plane = &image[c * size * size..(c + 1) * size * size];
        for y in 0..half {
            for x in 0..half {
                let at = |dy: usize, dx: usize| plane[(2 * y + dy) * size + 2 * x + dx];
                out.push(at(0, 0).max(at(0, 1)).max(at(1, 0)).max(at(1, 1)));
            }
        }
    }
    out
}
// ANCHOR_END: im2col

/// LeNet-5 with seeded random weights.
pub struct LeNet5 {
    c1: Layer,
    c3: Layer,
    c5: Layer,
    f6: Layer,
    output: Layer,
}

/// Side of the square grey-scale input image.
pub const INPUT_SIZE: usize = 32;
/// Number of classes (digits).
pub const CLASSES: usize = 10;

impl LeNet5 {
    /// Builds the network with weights drawn from a generator seeded with `seed` (He-scaled).
    pub fn random(seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        Self {
            c1: Layer::new(6, 25, &mut rng),
            c3: Layer::new(16, 6 * 25, &mut rng),
            c5: Layer::new(120, 16 * 25, &mut rng),
            f6: Layer::new(84, 120, &mut rng),
            output: Layer::new(CLASSES, 84, &mut rng),
        }
    }

    fn layers(&self) -> [&Layer; 5] {
        [&self.c1, &self.c3, &self.c5, &self.f6, &self.output]
    }

    /// Weights and biases, all layers.
    pub fn parameters(&self) -> usize {
        self.layers().iter().map(|l| l.parameters()).sum()
    }

    /// Bytes the parameters take at `bits_per_parameter` bits each.
    pub fn bytes(&self, bits_per_parameter: usize) -> usize {
        self.parameters() * bits_per_parameter / 8
    }

    /// Floating-point operations of one image, a multiply-add counted as two: each layer does
    /// `out × positions × fan_in` multiply-adds (biases, ReLU and pooling are left out).
    pub fn flops_per_image(&self) -> usize {
        let positions = [28 * 28, 10 * 10, 1, 1, 1];
        let layers = self.layers();
        2 * layers
            .iter()
            .zip(positions)
            .map(|(l, p)| l.out * p * l.fan_in)
            .sum::<usize>()
    }

    // ANCHOR: forward
    /// Class scores (logits) of one `32 × 32` image, row-major.
    pub fn forward(&self, image: &[f32]) -> Result<[f32; CLASSES], crate::QuantError> {
        if image.len() != INPUT_SIZE * INPUT_SIZE {
            return Err(crate::QuantError::Shape {
                what: "LeNet-5 input",
                detail: format!(
                    "expected a 32×32 grey-scale image (1024 values), got {} values",
                    image.len()
                ),
            });
        }
        let c1 = self.c1.apply(&im2col(image, 1, 32, 5), 28 * 28, true); // 6 × 28 × 28
        let s2 = max_pool_2x2(&c1, 6, 28); // 6 × 14 × 14
        let c3 = self.c3.apply(&im2col(&s2, 6, 14, 5), 10 * 10, true); // 16 × 10 × 10
        let s4 = max_pool_2x2(&c3, 16, 10); // 16 × 5 × 5 = 400 values
        let c5 = self.c5.apply(&s4, 1, true); // a 5×5 kernel on a 5×5 map: 120 values
        let f6 = self.f6.apply(&c5, 1, true);
        let logits = self.output.apply(&f6, 1, false);
        Ok(logits
            .try_into()
            .expect("the output layer has CLASSES rows"))
    }
    // ANCHOR_END: forward
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_bytes_and_flops_match_the_hand_count() {
        let net = LeNet5::random(1);
        // 6·26 + 16·151 + 120·401 + 84·121 + 10·85
        assert_eq!(net.parameters(), 156 + 2_416 + 48_120 + 10_164 + 850);
        assert_eq!(net.parameters(), 61_706);
        assert_eq!(net.bytes(32), 246_824);
        assert_eq!(net.bytes(16), 123_412);
        assert_eq!(net.bytes(8), 61_706);
        // multiply-adds: 117 600 + 240 000 + 48 000 + 10 080 + 840 = 416 520
        assert_eq!(net.flops_per_image(), 833_040);
    }

    #[test]
    fn im2col_of_a_tiny_image_is_computed_by_hand() {
        // one channel, 3×3 image 1..=9, 2×2 kernel: four positions of four values
        let image: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        let cols = im2col(&image, 1, 3, 2);
        assert_eq!(
            cols,
            [
                1., 2., 4., 5., 2., 3., 5., 6., 4., 5., 7., 8., 5., 6., 8., 9.
            ]
        );
    }

    #[test]
    fn a_convolution_through_im2col_matches_a_hand_computed_case() {
        // kernel [[1, 0], [0, -1]] and bias 0.5 on the 3×3 image: x[y][x] - x[y+1][x+1] + 0.5
        let image: Vec<f32> = (1..=9).map(|v| v as f32).collect();
        let layer = Layer {
            out: 1,
            fan_in: 4,
            weights: vec![1., 0., 0., -1.],
            bias: vec![0.5],
        };
        let y = layer.apply(&im2col(&image, 1, 3, 2), 4, false);
        assert_eq!(y, [-3.5, -3.5, -3.5, -3.5]);
        assert_eq!(layer.apply(&im2col(&image, 1, 3, 2), 4, true), [0.0; 4]);
    }

    #[test]
    fn max_pool_keeps_the_largest_of_each_2x2_block() {
        let image: Vec<f32> = (0..16).map(|v| v as f32).collect();
        assert_eq!(max_pool_2x2(&image, 1, 4), [5., 7., 13., 15.]);
    }

    #[test]
    fn forward_is_deterministic_and_depends_on_the_input_and_seed() {
        let image: Vec<f32> = (0..1024).map(|i| ((i * 37) % 101) as f32 / 100.0).collect();
        let a = LeNet5::random(7).forward(&image).unwrap();
        assert_eq!(a, LeNet5::random(7).forward(&image).unwrap());
        assert!(a.iter().all(|v| v.is_finite()));
        assert_ne!(a, LeNet5::random(8).forward(&image).unwrap());
        assert_ne!(a, LeNet5::random(7).forward(&vec![0.5; 1024]).unwrap());
    }

    #[test]
    fn a_wrong_sized_image_is_refused_with_the_expected_size() {
        let err = LeNet5::random(1).forward(&[0.0; 28 * 28]).unwrap_err();
        assert!(
            err.to_string().contains("(1024 values), got 784 values"),
            "{err}"
        );
    }
}
