//! Quantization-aware training (QAT): fine-tune a trained model while its forward pass sees the
//! quantized weights. Rounding has a zero derivative almost everywhere, so the backward pass
//! uses the straight-through estimator (STE): the gradient with respect to the quantized weight
//! is applied, unchanged, to the f32 weight it came from (Bengio et al., 2013; Jacob et al., 2018).

use computational_graphs::rng::SplitMix64;

use crate::QuantError;
use crate::model::{Dataset, Mlp, Moments, Recipe, gradients, shuffle};
use crate::weight_schemes::{WeightScheme, quantize_model};

/// Fine-tunes the f32 weights of `model` for `recipe.epochs` epochs of Adam, each step's loss
/// and gradients computed with the weights stored by `scheme` (fake quantization), the
/// gradients passed straight through the rounding. Returns each epoch's mean loss; the model
/// to deploy is `quantize_model(model, scheme)`.
pub fn train_quantization_aware(
    model: &mut Mlp,
    data: &Dataset,
    recipe: &Recipe,
    scheme: WeightScheme,
) -> Result<Vec<f32>, QuantError> {
    let mut moments = Moments::for_layers(model);
    let (points, width) = (data.labels.len(), data.x.cols());
    let mut rng = SplitMix64::new(recipe.seed);
    let mut order: Vec<usize> = (0..points).collect();
    let (mut t, mut losses) = (0, Vec::with_capacity(recipe.epochs));
    for _ in 0..recipe.epochs {
        shuffle(&mut order, &mut rng);
        let mut total = 0.0;
        // ANCHOR: qat_step
        for batch in order.chunks(recipe.batch.max(1)) {
            let x: Vec<f32> = (batch.iter())
                .flat_map(|&i| &data.x.data()[i * width..(i + 1) * width])
                .copied()
                .collect();
            let labels: Vec<usize> = batch.iter().map(|&i| data.labels[i]).collect();
            // Forward and backward through Q(W): the model as it will be deployed.
            let (loss, grads) = gradients(&quantize_model(model, scheme)?, &x, &labels);
            total += loss * batch.len() as f32;
            t += 1;
            // Straight through: dL/dW := dL/dQ(W), applied to the f32 weights.
            for (((w, b), (mw, mb)), (gw, gb)) in
                model.layers.iter_mut().zip(&mut moments).zip(&grads)
            {
                mw.step(w.data_mut(), gw, &vec![true; gw.len()], recipe.rate, t);
                mb.step(b.data_mut(), gb, &vec![true; gb.len()], recipe.rate, t);
            }
        }
        // ANCHOR_END: qat_step
        losses.push(total / points.max(1) as f32);
    }
    Ok(losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{LayerMask, SpiralTask, accuracy, train_masked};

    #[test]
    fn qat_recovers_accuracy_that_post_training_quantization_loses() {
        let task = SpiralTask {
            classes: 3,
            turns: 1.5,
            noise: 0.1,
        };
        let (train, test) = (task.sample(200, 1), task.sample(300, 2));
        let mut model = Mlp::new(&[2, 32, 32, 3], 5);
        let masks: Vec<LayerMask> = (model.layers.iter())
            .map(|(w, _)| LayerMask::dense(w.rows(), w.cols()))
            .collect();
        let recipe = Recipe {
            epochs: 60,
            batch: 32,
            rate: 5e-3,
            seed: 9,
        };
        train_masked(&mut model, &train, &recipe, &masks).unwrap();
        let scheme = WeightScheme::PerTensor(3);
        let acc = |m: &Mlp| {
            accuracy(
                &quantize_model(m, scheme).unwrap().forward(&test.x),
                &test.labels,
            )
        };
        let ptq = acc(&model);
        let fine = Recipe {
            epochs: 20,
            rate: 1e-3,
            ..recipe
        };
        let losses = train_quantization_aware(&mut model, &train, &fine, scheme).unwrap();
        assert!(losses.last() < losses.first(), "{losses:?}");
        assert!(acc(&model) > ptq, "QAT {} vs PTQ {ptq}", acc(&model));
    }
}
