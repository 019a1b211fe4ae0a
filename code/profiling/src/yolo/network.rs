//! A network of YOLO's shape with random weights: strided 3×3 convolutions with SiLU, then a 1×1
//! detection head that predicts, for every cell of the last grid and each of three anchors, a box
//! offset, an objectness and one score per class. Its cost is that of a real network of this
//! size; its boxes mean nothing, since nothing was trained.

use bench_harness::rng::SplitMix64;
use computational_graphs::cpu_matmul::packed_fma;

/// Feature maps, channel-major: `data[(c * height + y) * width + x]`.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureMap {
    pub channels: usize,
    pub height: usize,
    pub width: usize,
    pub data: Vec<f32>,
}

/// One convolution: `out × (in·k·k)` weights, a bias per output channel, zero padding `k / 2`.
#[derive(Clone, Debug)]
pub struct Conv {
    pub in_channels: usize,
    pub out_channels: usize,
    pub kernel: usize,
    pub stride: usize,
    pub silu: bool,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Conv {
    /// He-uniform random weights (bound √(6 / fan-in)), so activations keep their scale.
    pub fn random(rng: &mut SplitMix64, io: (usize, usize), kernel: usize, stride: usize) -> Self {
        let fan_in = io.0 * kernel * kernel;
        let bound = (6.0 / fan_in as f32).sqrt();
        Self {
            in_channels: io.0,
            out_channels: io.1,
            kernel,
            stride,
            silu: true,
            weights: (0..io.1 * fan_in).map(|_| rng.symmetric(bound)).collect(),
            bias: vec![0.0; io.1],
        }
    }

    /// Output height or width for an input side.
    pub fn out_side(&self, side: usize) -> usize {
        (side + 2 * (self.kernel / 2) - self.kernel) / self.stride + 1
    }

    // ANCHOR: conv
    /// The convolution as one matrix product: every output pixel's receptive field becomes a
    /// column (im2col), and the weights (out × in·k·k) multiply all columns at once.
    pub fn forward(&self, input: &FeatureMap, columns: &mut Vec<f32>) -> FeatureMap {
        let (oh, ow) = (self.out_side(input.height), self.out_side(input.width));
        let rows = self.in_channels * self.kernel * self.kernel;
        im2col(self, input, (oh, ow), columns);
        let mut out = vec![0.0; self.out_channels * oh * ow];
        packed_fma(
            &self.weights,
            columns,
            &mut out,
            self.out_channels,
            rows,
            oh * ow,
        );
        for (channel, plane) in out.chunks_mut(oh * ow).enumerate() {
            for v in plane {
                *v += self.bias[channel];
                if self.silu {
                    *v /= 1.0 + (-*v).exp(); // SiLU: x · sigmoid(x)
                }
            }
        }
        FeatureMap {
            channels: self.out_channels,
            height: oh,
            width: ow,
            data: out,
        }
    }
    // ANCHOR_END: conv
}

/// Row `(c, ky, kx)`, column `(y, x)` of the column matrix: the input pixel that weight meets
/// when output pixel `(y, x)` is computed, or 0 in the padding.
fn im2col(conv: &Conv, input: &FeatureMap, (oh, ow): (usize, usize), columns: &mut Vec<f32>) {
    let (k, pad) = (conv.kernel, (conv.kernel / 2) as isize);
    columns.clear();
    columns.resize(conv.in_channels * k * k * oh * ow, 0.0);
    let mut row = 0;
    for c in 0..conv.in_channels {
        let plane = &input.data[c * input.height * input.width..][..input.height * input.width];
        for ky in 0..k {
            for kx in 0..k {
                let dst = &mut columns[row * oh * ow..][..oh * ow];
                for y in 0..oh {
                    let sy = (y * conv.stride + ky) as isize - pad;
                    if sy < 0 || sy >= input.height as isize {
                        continue;
                    }
                    for x in 0..ow {
                        let sx = (x * conv.stride + kx) as isize - pad;
                        if sx >= 0 && sx < input.width as isize {
                            dst[y * ow + x] = plane[sy as usize * input.width + sx as usize];
                        }
                    }
                }
                row += 1;
            }
        }
    }
}

/// Anchors (width, height in input pixels) of the stride-8 head, as YOLOv5's configuration has
/// them for its finest grid.
pub const ANCHORS: [(f32, f32); 3] = [(10.0, 13.0), (16.0, 30.0), (33.0, 23.0)];

/// The network: a backbone of strided 3×3 convolutions down to 1/8 of the input, and a 1×1 head
/// with `ANCHORS.len() × (5 + classes)` outputs per cell.
#[derive(Clone, Debug)]
pub struct TinyYolo {
    pub layers: Vec<Conv>,
    pub classes: usize,
}

impl TinyYolo {
    /// Random weights, deterministic for a seed.
    pub fn random(seed: u64, classes: usize) -> Self {
        let mut rng = SplitMix64::new(seed);
        let plan = [
            (3, 16, 2),
            (16, 32, 2),
            (32, 32, 1),
            (32, 64, 2),
            (64, 64, 1),
        ];
        let mut layers: Vec<Conv> = plan
            .iter()
            .map(|&(i, o, stride)| Conv::random(&mut rng, (i, o), 3, stride))
            .collect();
        let mut head = Conv::random(&mut rng, (64, ANCHORS.len() * (5 + classes)), 1, 1);
        head.silu = false;
        layers.push(head);
        Self { layers, classes }
    }

    /// The same network with YOLOv5's starting biases in the head: objectness as if about 8
    /// objects were spread over a 640×640 image's stride-8 cells, classes as if equally likely
    /// (ultralytics/yolov5, `models/yolo.py`, `_initialize_biases`). With zero biases, nearly every
    /// cell of an untrained head claims an object; with these, nearly none does.
    pub fn with_yolov5_biases(mut self) -> Self {
        let per_anchor = 5 + self.classes;
        let head = self.layers.last_mut().expect("a head");
        for anchor in 0..ANCHORS.len() {
            head.bias[anchor * per_anchor + 4] = (8.0f32 / (640.0f32 / 8.0).powi(2)).ln();
            for c in 0..self.classes {
                head.bias[anchor * per_anchor + 5 + c] = (0.6 / (self.classes as f32 - 0.99)).ln();
            }
        }
        self
    }

    /// The grid's stride: input pixels per cell.
    pub fn stride(&self) -> usize {
        self.layers.iter().map(|l| l.stride).product()
    }

    /// The head's raw outputs for an input, one span per layer.
    pub fn forward(&self, input: &FeatureMap) -> FeatureMap {
        let mut columns = Vec::new();
        let mut x = input.clone();
        for (index, layer) in self.layers.iter().enumerate() {
            let _span = tracing::info_span!("conv", index, out = layer.out_channels).entered();
            x = layer.forward(&x, &mut columns);
        }
        x
    }
}
