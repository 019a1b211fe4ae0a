//! Every analytic gradient against central finite differences, on random small shapes.

use computational_graphs::autograd::finite_difference::central_difference;
use computational_graphs::autograd::{
    Layer, Sequential, linear_backward, relu_backward, softmax_cross_entropy,
    softmax_cross_entropy_backward,
};
use computational_graphs::ops::cpu;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};

const EPS: f32 = 1e-2;

/// `Σ G ⊙ Y` in f64: a scalar whose gradient with respect to `Y` is the fixed, random `G`, so
/// its gradient with respect to an operator's inputs is that operator's backward pass fed `G`.
fn weighted_sum(g: &Tensor2D, y: &Tensor2D) -> f64 {
    g.data()
        .iter()
        .zip(y.data())
        .map(|(a, b)| f64::from(*a) * f64::from(*b))
        .sum()
}

// ANCHOR: assert_close
/// The analytic gradient must match the numerical one within what the numerical one can
/// promise. Elements not touched by a step round identically on both sides and cancel; an
/// element that is touched carries an f32 rounding error of about `terms` units of roundoff
/// (one per addition in its sum), divided by the step `2ε`. Central differences also carry a
/// truncation error of order ε² times the third derivative, covered by the relative part.
fn assert_close(what: &str, analytic: &Tensor2D, numeric: &Tensor2D, terms: usize) {
    assert_eq!(analytic.shape(), numeric.shape(), "{what}: shapes differ");
    let rounding = terms as f32 * f32::EPSILON / (2.0 * EPS);
    for (i, (a, n)) in analytic.data().iter().zip(numeric.data()).enumerate() {
        let tolerance = 4.0 * rounding + 1e-2 * n.abs();
        assert!(
            (a - n).abs() <= tolerance,
            "{what}[{i}]: analytic {a}, finite difference {n}, tolerance {tolerance}"
        );
    }
}
// ANCHOR_END: assert_close

fn shape(rng: &mut SplitMix64) -> (usize, usize, usize) {
    let mut dim = || 1 + rng.below(6) as usize;
    (dim(), dim(), dim())
}

// ANCHOR: linear_test
#[test]
fn linear_backward_matches_finite_differences() -> Result<(), Error> {
    let mut rng = SplitMix64::new(1);
    for _ in 0..20 {
        let (m, k, n) = shape(&mut rng);
        let x = Tensor2D::random(m, k, 1.0, &mut rng);
        let w = Tensor2D::random(k, n, 1.0, &mut rng);
        let b = Tensor2D::random(1, n, 1.0, &mut rng);
        let g = Tensor2D::random(m, n, 1.0, &mut rng);
        let grads = linear_backward(&x, &w, &g)?;
        let terms = n * (k + 1);
        let dx = central_difference(&x, EPS, |x| Ok(weighted_sum(&g, &cpu::linear(x, &w, &b)?)))?;
        assert_close("dX", &grads.input, &dx, terms);
        let dw = central_difference(&w, EPS, |w| Ok(weighted_sum(&g, &cpu::linear(&x, w, &b)?)))?;
        assert_close("dW", &grads.weights, &dw, m * terms);
        let db = central_difference(&b, EPS, |b| Ok(weighted_sum(&g, &cpu::linear(&x, &w, b)?)))?;
        assert_close("db", &grads.bias, &db, m * terms);
    }
    Ok(())
}
// ANCHOR_END: linear_test

#[test]
fn relu_backward_matches_finite_differences_away_from_the_kink() -> Result<(), Error> {
    let mut rng = SplitMix64::new(2);
    for _ in 0..20 {
        let (m, n, _) = shape(&mut rng);
        // At |x| < ε the two probes straddle the kink and the difference is meaningless:
        // keep every input at least 0.1 away from 0.
        let mut x = Tensor2D::random(m, n, 1.0, &mut rng);
        x.data_mut()
            .iter_mut()
            .for_each(|v| *v = v.signum() * (0.1 + v.abs()));
        let g = Tensor2D::random(m, n, 1.0, &mut rng);
        let dx = central_difference(&x, EPS, |x| Ok(weighted_sum(&g, &cpu::relu(x))))?;
        assert_close("dX", &relu_backward(&x, &g)?, &dx, 1);
    }
    Ok(())
}

#[test]
fn softmax_cross_entropy_backward_matches_finite_differences() -> Result<(), Error> {
    let mut rng = SplitMix64::new(3);
    for _ in 0..20 {
        let (m, n, _) = shape(&mut rng);
        let z = Tensor2D::random(m, n, 3.0, &mut rng);
        let labels: Vec<usize> = (0..m).map(|_| rng.below(n as u64) as usize).collect();
        let forward = softmax_cross_entropy(&z, &labels)?;
        let grad = softmax_cross_entropy_backward(&forward.probabilities, &labels)?;
        let dz = central_difference(&z, EPS, |z| {
            Ok(f64::from(softmax_cross_entropy(z, &labels)?.loss))
        })?;
        assert_close("dZ", &grad, &dz, 4 * n);
    }
    Ok(())
}

#[test]
fn the_fused_loss_stays_finite_where_softmax_then_log_would_not() -> Result<(), Error> {
    // softmax rounds the wrong class's probability to exactly 0 here: ln 0 = −∞.
    let z = Tensor2D::from_rows(&[[200.0, 0.0]]);
    assert_eq!(cpu::softmax(&z).get(0, 1), 0.0);
    let fused = softmax_cross_entropy(&z, &[1])?;
    assert!((fused.loss - 200.0).abs() < 1e-3, "loss {}", fused.loss);
    let grad = softmax_cross_entropy_backward(&fused.probabilities, &[1])?;
    assert_eq!(grad.data(), &[1.0, -1.0]);
    Ok(())
}

// ANCHOR: chain_test
#[test]
fn the_tape_gives_every_parameter_of_a_chain_its_finite_difference_gradient() -> Result<(), Error> {
    let mut rng = SplitMix64::new(4);
    for seed in 0..5 {
        let net = Sequential::mlp(&[3, 5, 4, 3], seed);
        // A probe of ±ε near a ReLU input of 0 measures its kink, not a derivative: draw
        // inputs until every ReLU's input keeps a clear distance from 0.
        let x = loop {
            let x = Tensor2D::random(6, 3, 1.0, &mut rng);
            if closest_to_a_kink(&net, &x)? > 0.02 {
                break x;
            }
        };
        let labels: Vec<usize> = (0..6).map(|_| rng.below(3) as usize).collect();
        let (_, tape) = net.forward_loss(&x, &labels)?;
        let grads = net.backward(&tape)?;
        for (i, layer) in net.layers.iter().enumerate() {
            let Layer::Linear { weights, bias } = layer else {
                continue;
            };
            let analytic = grads.layers[i]
                .as_ref()
                .expect("a Linear layer has gradients");
            let loss_with = |w: &Tensor2D, b: &Tensor2D| {
                let mut probe = net.clone();
                probe.layers[i] = Layer::linear(w.clone(), b.clone())?;
                Ok(f64::from(probe.forward_loss(&x, &labels)?.0))
            };
            // A smaller step: a hidden unit near 0 must not be pushed across its ReLU's kink.
            let eps = 1e-3;
            let dw = central_difference(weights, eps, |w| loss_with(w, bias))?;
            let db = central_difference(bias, eps, |b| loss_with(weights, b))?;
            for (a, n) in [(&analytic.weights, &dw), (&analytic.bias, &db)] {
                let error = a.max_abs_diff(n);
                assert!(error < 2e-3, "layer {i}: max error {error}\n{a:?}\n{n:?}");
            }
        }
    }
    Ok(())
}
// ANCHOR_END: chain_test

/// The smallest |input| any ReLU of `net` sees for `x`.
fn closest_to_a_kink(net: &Sequential, x: &Tensor2D) -> Result<f32, Error> {
    let mut closest = f32::INFINITY;
    let mut out = x.clone();
    for layer in &net.layers {
        if let Layer::Relu = layer {
            closest = out.data().iter().fold(closest, |c, v| c.min(v.abs()));
        }
        out = Sequential::new(vec![layer.clone()]).forward(&out)?;
    }
    Ok(closest)
}

#[test]
fn shape_mistakes_are_refused_with_what_to_fix() {
    let x = Tensor2D::zeros(2, 3);
    let w = Tensor2D::zeros(4, 5);
    let err = linear_backward(&x, &w, &Tensor2D::zeros(2, 5)).unwrap_err();
    assert!(
        err.to_string().contains("input's columns must equal"),
        "{err}"
    );
    let w = Tensor2D::zeros(3, 5);
    let err = linear_backward(&x, &w, &Tensor2D::zeros(5, 2)).unwrap_err();
    let expected = Error::shape(
        "linear_backward",
        ShapeError::Mismatch {
            what: "the output's gradient",
            got: (5, 2),
            expected: (2, 5),
        },
    );
    assert_eq!(err.to_string(), expected.to_string());
    assert!(relu_backward(&x, &Tensor2D::zeros(3, 2)).is_err());
    let err = softmax_cross_entropy(&x, &[0]).unwrap_err();
    assert!(err.to_string().contains("one label per row"), "{err}");
    let err = softmax_cross_entropy(&x, &[0, 3]).unwrap_err();
    assert!(err.to_string().contains("only 3 classes"), "{err}");
    let err = Layer::linear(w, Tensor2D::zeros(1, 4)).unwrap_err();
    assert!(
        err.to_string().contains("the bias is 1×4 but must be 1×5"),
        "{err}"
    );
}
