//! The shipped model: it loads, it is accurate, and quantizing it costs what the book says.

use quantization::affine::Scheme;
use quantization::fake_quant::{Granularity, fake_quantize};
use quantization::model::{Mlp, accuracy, held_out_spirals, load, save, shipped, spirals, train};

#[test]
fn the_shipped_model_classifies_unseen_spirals() {
    let test = held_out_spirals(3, 200, 21);
    let acc = accuracy(&shipped().forward(&test.x), &test.labels);
    assert!(acc > 0.97, "test accuracy {acc}");
}

#[test]
fn held_out_points_lie_elsewhere_on_the_same_arms() {
    let (train_set, held) = (spirals(3, 200, 7), held_out_spirals(3, 200, 7));
    assert_eq!(
        held.labels, train_set.labels,
        "200 points per arm, in class order"
    );
    // Radius t of each point: the training grid is i/200; the held-out radii are random.
    let radius = |x: &[f32]| x.chunks(2).map(|p| p[0].hypot(p[1])).collect::<Vec<_>>();
    let (on_grid, held_radii) = (radius(train_set.x.data()), radius(held.x.data()));
    let off_grid = held_radii
        .iter()
        .filter(|&&t| ((t * 200.0).round() - t * 200.0).abs() > 1e-3)
        .count();
    assert!(
        off_grid > 590,
        "only {off_grid} of 600 radii are off the training grid"
    );
    assert!(
        on_grid
            .iter()
            .all(|&t| ((t * 200.0).round() - t * 200.0).abs() < 1e-3)
    );
    assert!(held_radii.iter().all(|&t| (0.0..1.0).contains(&t)));
}

#[test]
fn int8_per_channel_weights_keep_the_accuracy_and_two_bits_do_not() {
    let test = spirals(3, 200, 8);
    let model = shipped();
    let with = |bits| {
        let layers = model
            .layers
            .iter()
            .map(|(w, b)| {
                (
                    fake_quantize(w, bits, Scheme::Symmetric, Granularity::PerChannel).unwrap(),
                    b.clone(),
                )
            })
            .collect();
        accuracy(&Mlp { layers }.forward(&test.x), &test.labels)
    };
    let f32_acc = accuracy(&model.forward(&test.x), &test.labels);
    assert!(
        (with(8) - f32_acc).abs() < 0.01,
        "int8 {} vs f32 {f32_acc}",
        with(8)
    );
    assert!(with(2) < f32_acc - 0.1, "2 bits {}", with(2));
}

#[test]
fn training_is_deterministic_and_lowers_the_loss() {
    let data = spirals(3, 20, 7);
    let run = || {
        let mut m = Mlp::new(&[2, 8, 8, 3], 11);
        let losses = train(&mut m, &data, 30, 0.5);
        (m, losses)
    };
    let (a, la) = run();
    let (b, _) = run();
    assert_eq!(a, b, "same seed, same weights");
    assert!(la[la.len() - 1] < la[0], "{la:?}");
}

#[test]
fn weights_round_trip_through_safetensors() {
    let m = Mlp::new(&[2, 5, 3], 1);
    assert_eq!(load(&save(&m).unwrap(), 2).unwrap(), m);
    let err = load(&save(&m).unwrap(), 3).unwrap_err();
    assert!(err.to_string().contains("layer2"), "{err}");
    assert!(load(b"not a file", 1).is_err());
}
