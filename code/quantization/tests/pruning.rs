//! Train → prune → retrain: the masks hold through retraining, each scheme removes exactly what
//! it says, and retraining a pruned model wins back accuracy.

use quantization::model::{
    LayerMask, Mlp, Pruning, Recipe, SpiralTask, accuracy, apply_masks, hidden_masks,
    hidden_sparsity, train_masked,
};

const TASK: SpiralTask = SpiralTask {
    classes: 3,
    turns: 1.0,
    noise: 0.2,
};
const RECIPE: Recipe = Recipe {
    epochs: 40,
    batch: 16,
    rate: 1e-2,
    seed: 5,
};

fn dense_masks(model: &Mlp) -> Vec<LayerMask> {
    model
        .layers
        .iter()
        .map(|(w, _)| LayerMask::dense(w.rows(), w.cols()))
        .collect()
}

fn trained() -> Mlp {
    let mut model = Mlp::new(&[2, 16, 16, 16, 3], 9);
    let masks = dense_masks(&model);
    train_masked(&mut model, &TASK.sample(100, 1), &RECIPE, &masks).unwrap();
    model
}

#[test]
fn training_learns_the_spirals_and_is_deterministic() {
    let test = TASK.sample(200, 2);
    let a = trained();
    assert_eq!(a, trained(), "same seeds, same weights");
    let acc = accuracy(&a.forward(&test.x), &test.labels);
    assert!(acc > 0.9, "test accuracy {acc}");
}

#[test]
fn the_two_seeds_of_the_task_give_different_points() {
    let (a, b) = (TASK.sample(50, 1), TASK.sample(50, 2));
    assert_eq!(a.labels, b.labels);
    assert_ne!(a.x, b.x);
    assert_eq!(a.x, TASK.sample(50, 1).x);
}

#[test]
fn retraining_keeps_every_pruned_weight_at_zero_and_moves_the_others() {
    let dense = trained();
    let data = TASK.sample(100, 1);
    for how in [
        Pruning::Magnitude(0.8),
        Pruning::Neurons(0.5),
        Pruning::TwoFour,
    ] {
        let masks = hidden_masks(&dense, how).unwrap();
        let pruned = apply_masks(&dense, &masks);
        let mut tuned = dense.clone(); // unpruned: train_masked must apply the masks itself
        train_masked(&mut tuned, &data, &RECIPE, &masks).unwrap();
        let (mut kept, mut moved) = (0, 0);
        for (((w, b), (pw, _)), m) in tuned.layers.iter().zip(&pruned.layers).zip(&masks) {
            for ((x, p), keep) in w.data().iter().zip(pw.data()).zip(&m.weight) {
                assert!(
                    *keep || *x == 0.0,
                    "{how:?}: a pruned weight came back as {x}"
                );
                kept += usize::from(*keep);
                moved += usize::from(*keep && x != p);
            }
            assert!(b.data().iter().zip(&m.bias).all(|(x, k)| *k || *x == 0.0));
        }
        // Weights fed by a neuron that never fires get no gradient; most others do.
        assert!(
            moved * 10 > kept * 7,
            "{how:?}: {moved} of {kept} kept weights trained"
        );
        assert_eq!(hidden_sparsity(&tuned), hidden_sparsity(&pruned), "{how:?}");
    }
}

#[test]
fn each_scheme_prunes_the_hidden_layers_exactly() {
    let dense = trained();
    let masks = |how| hidden_masks(&dense, how).unwrap();
    for how in [
        Pruning::Magnitude(0.75),
        Pruning::Neurons(0.75),
        Pruning::TwoFour,
    ] {
        let m = masks(how);
        let (first, last) = (&m[0], &m[m.len() - 1]);
        assert!(
            first.weight.iter().chain(&last.weight).all(|k| *k),
            "{how:?}"
        );
        let want = if how == Pruning::TwoFour { 0.5 } else { 0.75 };
        assert_eq!(hidden_sparsity(&apply_masks(&dense, &m)), want, "{how:?}");
    }
    // Neuron pruning takes the bias with the column: the neuron outputs ReLU(0) = 0.
    let m = masks(Pruning::Neurons(0.75));
    for layer in &m[1..m.len() - 1] {
        assert_eq!(layer.bias.iter().filter(|k| !**k).count(), 12);
        assert!((0..16).all(|c| layer.bias[c] == layer.weight[c]));
    }
    // 2:4: two of every four consecutive weights along the input, in every column.
    for layer in &masks(Pruning::TwoFour)[1..3] {
        for c in 0..16 {
            for g in (0..16).step_by(4) {
                assert_eq!((g..g + 4).filter(|r| layer.weight[r * 16 + c]).count(), 2);
            }
        }
    }
}

#[test]
fn retraining_wins_back_what_heavy_pruning_loses() {
    let dense = trained();
    let (data, test) = (TASK.sample(100, 1), TASK.sample(200, 2));
    let masks = hidden_masks(&dense, Pruning::Magnitude(0.8)).unwrap();
    let pruned = apply_masks(&dense, &masks);
    let mut tuned = pruned.clone();
    train_masked(&mut tuned, &data, &RECIPE, &masks).unwrap();
    let acc = |m: &Mlp| accuracy(&m.forward(&test.x), &test.labels);
    assert!(
        acc(&tuned) > acc(&pruned) + 0.05,
        "{} → {}",
        acc(&pruned),
        acc(&tuned)
    );
}

#[test]
fn bad_masks_and_recipes_are_refused_with_a_reason() {
    let mut model = Mlp::new(&[2, 4, 3], 1);
    let data = TASK.sample(10, 1);
    let mut masks = dense_masks(&model);
    masks.pop();
    let err = train_masked(&mut model, &data, &RECIPE, &masks).unwrap_err();
    assert!(err.to_string().contains("one mask per layer"), "{err}");
    let zero_batch = Recipe { batch: 0, ..RECIPE };
    let masks = dense_masks(&model);
    assert!(train_masked(&mut model, &data, &zero_batch, &masks).is_err());
    let four_classes = SpiralTask { classes: 4, ..TASK }.sample(5, 1);
    assert!(train_masked(&mut model, &four_classes, &RECIPE, &masks).is_err());
    assert!(hidden_masks(&Mlp::new(&[2, 6, 4, 3], 1), Pruning::TwoFour).is_err());
}
