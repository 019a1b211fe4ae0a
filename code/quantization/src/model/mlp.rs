use computational_graphs::ops::cpu;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;

use super::Dataset;

/// Layers of `x · W + b`, ReLU between them, logits out.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    pub layers: Vec<(Tensor2D, Tensor2D)>,
}

impl Mlp {
    /// He-style initial weights from a fixed seed.
    pub fn new(widths: &[usize], seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let layers = widths
            .windows(2)
            .map(|w| {
                let scale = (6.0 / w[0] as f32).sqrt();
                (
                    Tensor2D::random(w[0], w[1], scale, &mut rng),
                    Tensor2D::zeros(1, w[1]),
                )
            })
            .collect();
        Self { layers }
    }

    /// Logits, and every layer's input (for back-propagation).
    fn forward_keep(&self, x: &Tensor2D) -> (Tensor2D, Vec<Tensor2D>) {
        let mut acts = vec![x.clone()];
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let z = cpu::linear(acts.last().expect("input"), w, b).expect("shapes fixed at new()");
            if i + 1 == self.layers.len() {
                return (z, acts);
            }
            acts.push(cpu::relu(&z));
        }
        unreachable!("an MLP has at least one layer")
    }

    pub fn forward(&self, x: &Tensor2D) -> Tensor2D {
        self.forward_keep(x).0
    }
}

/// The fraction of rows whose largest logit is the label.
pub fn accuracy(logits: &Tensor2D, labels: &[usize]) -> f64 {
    let n = logits.cols();
    let right = logits
        .data()
        .chunks(n)
        .zip(labels)
        .filter(|(row, l)| {
            let best = row
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(i, _)| i);
            best == Some(**l)
        })
        .count();
    right as f64 / labels.len().max(1) as f64
}

// ANCHOR: train_loss
/// Full-batch gradient descent on softmax cross-entropy; returns the loss of each step.
pub fn train(model: &mut Mlp, data: &Dataset, steps: usize, rate: f32) -> Vec<f32> {
    let m = data.x.rows() as f32;
    let mut losses = Vec::with_capacity(steps);
    for _ in 0..steps {
        let (logits, acts) = model.forward_keep(&data.x);
        let mut grad = cpu::softmax(&logits); // dL/dz = softmax - one_hot, averaged
        let n = grad.cols();
        let mut loss = 0.0;
        for (row, &l) in grad.data_mut().chunks_mut(n).zip(&data.labels) {
            loss -= row[l].max(1e-12).ln();
            row[l] -= 1.0;
            row.iter_mut().for_each(|g| *g /= m);
        }
        losses.push(loss / m);
        // ANCHOR_END: train_loss
        // ANCHOR: train_backward
        for i in (0..model.layers.len()).rev() {
            let a = &acts[i];
            let (w, b) = &mut model.layers[i];
            let back = (i > 0).then(|| matmul_bt(&grad, w));
            let gw = matmul_at(a, &grad);
            w.data_mut()
                .iter_mut()
                .zip(gw.data())
                .for_each(|(w, g)| *w -= rate * g);
            for (j, bj) in b.data_mut().iter_mut().enumerate() {
                *bj -= rate * grad.data().iter().skip(j).step_by(grad.cols()).sum::<f32>();
            }
            if let Some(mut back) = back {
                // Through the ReLU: no gradient where the activation was clipped to 0.
                back.data_mut()
                    .iter_mut()
                    .zip(a.data())
                    .for_each(|(g, &x)| {
                        if x <= 0.0 {
                            *g = 0.0
                        }
                    });
                grad = back;
            }
        }
        // ANCHOR_END: train_backward
    }
    losses
}

/// aᵀ · g (k×m · m×n).
fn matmul_at(a: &Tensor2D, g: &Tensor2D) -> Tensor2D {
    let (m, k, n) = (a.rows(), a.cols(), g.cols());
    let mut out = Tensor2D::zeros(k, n);
    for r in 0..m {
        for p in 0..k {
            let x = a.get(r, p);
            for j in 0..n {
                out.data_mut()[p * n + j] += x * g.get(r, j);
            }
        }
    }
    out
}

/// g · wᵀ (m×n · n×k).
fn matmul_bt(g: &Tensor2D, w: &Tensor2D) -> Tensor2D {
    let (m, n, k) = (g.rows(), g.cols(), w.rows());
    let mut out = Tensor2D::zeros(m, k);
    for r in 0..m {
        for p in 0..k {
            out.data_mut()[r * k + p] = (0..n).map(|j| g.get(r, j) * w.get(p, j)).sum();
        }
    }
    out
}
