//! Minibatch training with Adam, with an optional pruning mask held fixed: the recipe for
//! training a model and for fine-tuning it after pruning (train → prune → retrain).

use computational_graphs::rng::SplitMix64;

use super::{Dataset, Mlp};
use crate::QuantError;

/// How long and how fast to train; the seed fixes the order of the minibatches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    pub seed: u64,
}

/// Which weights (k×n, row-major) and biases (n) of one layer may be non-zero.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerMask {
    pub weight: Vec<bool>,
    pub bias: Vec<bool>,
}

impl LayerMask {
    /// Everything kept.
    pub fn dense(k: usize, n: usize) -> Self {
        Self {
            weight: vec![true; k * n],
            bias: vec![true; n],
        }
    }
}

/// Adam's running averages for one tensor.
pub(crate) struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    pub(crate) fn new(len: usize) -> Self {
        Self {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// Fresh moments for the weights and the bias of every layer of `model`.
    pub(crate) fn for_layers(model: &Mlp) -> Vec<(Moments, Moments)> {
        (model.layers.iter())
            .map(|(w, b)| (Moments::new(w.data().len()), Moments::new(b.data().len())))
            .collect()
    }

    // ANCHOR: adam_masked
    /// One Adam step. A masked-off parameter gets a zero gradient, so its moments stay zero
    /// and so does its update: a pruned weight stays exactly zero.
    pub(crate) fn step(
        &mut self,
        params: &mut [f32],
        grad: &[f32],
        keep: &[bool],
        rate: f32,
        t: i32,
    ) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..params.len() {
            let g = if keep[i] { grad[i] } else { 0.0 };
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            params[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
    // ANCHOR_END: adam_masked
}

/// Trains `model` on `data` and returns the mean loss of each epoch. The mask is applied first
/// (that is the pruning) and held for the whole run (that is the retraining); pass
/// [`LayerMask::dense`] masks to train without pruning.
pub fn train_masked(
    model: &mut Mlp,
    data: &Dataset,
    recipe: &Recipe,
    masks: &[LayerMask],
) -> Result<Vec<f32>, QuantError> {
    check(model, data, recipe, masks)?;
    for ((w, b), mask) in model.layers.iter_mut().zip(masks) {
        zero_masked(w.data_mut(), &mask.weight);
        zero_masked(b.data_mut(), &mask.bias);
    }
    let mut moments = Moments::for_layers(model);
    let (points, width) = (data.labels.len(), data.x.cols());
    let mut rng = SplitMix64::new(recipe.seed);
    let mut order: Vec<usize> = (0..points).collect();
    let (mut t, mut losses) = (0, Vec::with_capacity(recipe.epochs));
    for _ in 0..recipe.epochs {
        shuffle(&mut order, &mut rng);
        let mut total = 0.0;
        for batch in order.chunks(recipe.batch) {
            let x: Vec<f32> = batch
                .iter()
                .flat_map(|&i| &data.x.data()[i * width..(i + 1) * width])
                .copied()
                .collect();
            let labels: Vec<usize> = batch.iter().map(|&i| data.labels[i]).collect();
            let (loss, grads) = gradients(model, &x, &labels);
            total += loss * batch.len() as f32;
            t += 1;
            for (((w, b), (mw, mb)), ((gw, gb), mask)) in model
                .layers
                .iter_mut()
                .zip(&mut moments)
                .zip(grads.iter().zip(masks))
            {
                mw.step(w.data_mut(), gw, &mask.weight, recipe.rate, t);
                mb.step(b.data_mut(), gb, &mask.bias, recipe.rate, t);
            }
        }
        losses.push(total / points as f32);
    }
    Ok(losses)
}

fn check(
    model: &Mlp,
    data: &Dataset,
    recipe: &Recipe,
    masks: &[LayerMask],
) -> Result<(), QuantError> {
    let bad = |detail: String| {
        Err(QuantError::Shape {
            what: "training",
            detail,
        })
    };
    if recipe.batch == 0 || data.labels.is_empty() || data.x.rows() != data.labels.len() {
        return bad("need a batch of at least 1 and one label per point".into());
    }
    let classes = model.layers.last().map_or(0, |(w, _)| w.cols());
    if data.labels.iter().any(|&l| l >= classes) || model.layers[0].0.rows() != data.x.cols() {
        return bad(format!(
            "the data has {} features and labels up to {:?}; the model takes {} and gives {classes} classes",
            data.x.cols(),
            data.labels.iter().max(),
            model.layers[0].0.rows()
        ));
    }
    let fits = masks.len() == model.layers.len()
        && (model.layers.iter().zip(masks))
            .all(|((w, b), m)| m.weight.len() == w.data().len() && m.bias.len() == b.data().len());
    if !fits {
        return bad("give one mask per layer, the size of its weights and biases".into());
    }
    Ok(())
}

fn zero_masked(values: &mut [f32], keep: &[bool]) {
    for (v, &k) in values.iter_mut().zip(keep) {
        if !k {
            *v = 0.0;
        }
    }
}

/// Fisher–Yates with the training seed.
pub(crate) fn shuffle(order: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// One layer's gradients: weights (k×n) and biases (n).
pub(crate) type LayerGrads = (Vec<f32>, Vec<f32>);

/// Mean softmax cross-entropy of a minibatch and its gradient for each layer's (W, b).
pub(crate) fn gradients(model: &Mlp, x: &[f32], labels: &[usize]) -> (f32, Vec<LayerGrads>) {
    let rows = labels.len();
    let mut acts = vec![x.to_vec()];
    let last = model.layers.len() - 1;
    for (i, (w, b)) in model.layers.iter().enumerate() {
        let mut z = affine(
            acts.last().expect("input"),
            rows,
            w.data(),
            w.cols(),
            b.data(),
        );
        if i < last {
            z.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        acts.push(z);
    }
    let mut g = acts.pop().expect("logits");
    let classes = model.layers[last].0.cols();
    let mut loss = 0.0;
    for (row, &l) in g.chunks_mut(classes).zip(labels) {
        let top = row.iter().fold(f32::MIN, |m, &v| m.max(v));
        row.iter_mut().for_each(|v| *v = (*v - top).exp());
        let sum: f32 = row.iter().sum();
        row.iter_mut().for_each(|v| *v /= sum);
        loss -= row[l].max(1e-12).ln();
        row[l] -= 1.0;
        row.iter_mut().for_each(|v| *v /= rows as f32);
    }
    let mut grads = Vec::with_capacity(model.layers.len());
    for i in (0..model.layers.len()).rev() {
        let (w, _) = &model.layers[i];
        let (k, n) = w.shape();
        let a = &acts[i];
        let mut gw = vec![0.0; k * n];
        let mut gb = vec![0.0; n];
        for r in 0..rows {
            let gr = &g[r * n..(r + 1) * n];
            gb.iter_mut().zip(gr).for_each(|(s, v)| *s += v);
            for p in 0..k {
                let av = a[r * k + p];
                if av != 0.0 {
                    let out = &mut gw[p * n..(p + 1) * n];
                    out.iter_mut().zip(gr).for_each(|(s, v)| *s += av * v);
                }
            }
        }
        if i > 0 {
            // Back through W, then through the ReLU (no gradient where it clipped to 0).
            let mut back = vec![0.0; rows * k];
            for r in 0..rows {
                let gr = &g[r * n..(r + 1) * n];
                for p in 0..k {
                    if a[r * k + p] > 0.0 {
                        let wp = &w.data()[p * n..(p + 1) * n];
                        back[r * k + p] = wp.iter().zip(gr).map(|(x, y)| x * y).sum();
                    }
                }
            }
            g = back;
        }
        grads.push((gw, gb));
    }
    grads.reverse();
    (loss / rows as f32, grads)
}

/// x · W + b for `rows` rows (x is rows×k, W is k×n, both row-major).
fn affine(x: &[f32], rows: usize, w: &[f32], n: usize, b: &[f32]) -> Vec<f32> {
    let k = w.len() / n;
    let mut out = Vec::with_capacity(rows * n);
    for r in 0..rows {
        let mut acc = b.to_vec();
        for (p, &xv) in x[r * k..(r + 1) * k].iter().enumerate() {
            if xv != 0.0 {
                let wp = &w[p * n..(p + 1) * n];
                acc.iter_mut().zip(wp).for_each(|(s, v)| *s += xv * v);
            }
        }
        out.extend(acc);
    }
    out
}
