//! The training case study: the loss falls, held-out points are classified, and the gradients
//! travel to JSON and back unchanged.

use profiling_lab::training::{GradientCheck, evaluate, train, two_layer_mlp};
use quantization::model::spirals;

// ANCHOR: training_test
#[test]
fn a_two_layer_network_learns_the_spirals() -> anyhow::Result<()> {
    let data = spirals(3, 100, 7);
    let held_out = spirals(3, 100, 8);
    let mut net = two_layer_mlp(64, 11);
    let losses = train(&mut net, &data, STEPS, RATE)?;
    // ln 3 ≈ 1.10 is the loss of a network that knows nothing.
    assert!(losses[0] > 0.9, "first loss {}", losses[0]);
    let last = losses[STEPS - 1];
    assert!(last < LOSS_BELOW, "loss after {STEPS} steps: {last}");
    let accuracy = evaluate(&net, &held_out)?;
    eprintln!("loss {} -> {last}, held-out accuracy {accuracy}", losses[0]);
    assert!(accuracy > ACCURACY_ABOVE, "held-out accuracy {accuracy}");
    Ok(())
}
// ANCHOR_END: training_test

const STEPS: usize = 1000;
const RATE: f32 = 1.0;
const LOSS_BELOW: f32 = 0.2;
const ACCURACY_ABOVE: f64 = 0.95;

#[test]
fn the_gradient_check_file_round_trips() -> anyhow::Result<()> {
    let data = spirals(3, 4, 7);
    let net = two_layer_mlp(5, 11);
    let check = GradientCheck::record(&net, &data)?;
    assert_eq!(check.widths, [2, 5, 3]);
    assert_eq!(check.x.len(), 12);
    assert_eq!(check.gradients[0].weights.len(), 2);
    assert_eq!(check.gradients[1].bias.len(), 3);
    let back: GradientCheck = serde_json::from_str(&serde_json::to_string(&check)?)?;
    assert_eq!(back, check);
    Ok(())
}
