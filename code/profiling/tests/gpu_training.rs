//! The training step on the GPU (lavapipe in CI): the same numbers as the CPU's step.

use computational_graphs::Error;
use computational_graphs::autograd::{Layer, Sequential};
use gpu_context::GpuContext;
use profiling_lab::training::{train, two_layer_mlp};
use profiling_lab::training_gpu::{BatchReduction, GpuTrainer, Schedule};
use quantization::model::spirals;

const RATE: f32 = 1.0;
const REDUCTION: BatchReduction = BatchReduction::WorkgroupPerElement;

/// The largest difference between two networks' parameters, relative to the largest parameter.
fn largest_difference(a: &Sequential, b: &Sequential) -> f32 {
    let mut worst = 0.0f32;
    for (x, y) in a.layers.iter().zip(&b.layers) {
        if let (
            Layer::Linear { weights, bias },
            Layer::Linear {
                weights: w2,
                bias: b2,
            },
        ) = (x, y)
        {
            for (p, q) in [(weights, w2), (bias, b2)] {
                let scale = p.data().iter().fold(1e-6f32, |m, v| m.max(v.abs()));
                for (u, v) in p.data().iter().zip(q.data()) {
                    worst = worst.max((u - v).abs() / scale);
                }
            }
        }
    }
    worst
}

// ANCHOR: gpu_step_test
#[test]
fn one_gpu_step_moves_the_weights_as_one_cpu_step() -> anyhow::Result<()> {
    let ctx = GpuContext::for_tests();
    let data = spirals(3, 40, 7);
    let start = two_layer_mlp(16, 11);
    let mut on_cpu = start.clone();
    let cpu_loss = train(&mut on_cpu, &data, 1, RATE)?;
    let reductions = [
        BatchReduction::InvocationPerElement,
        BatchReduction::WorkgroupPerElement,
    ];
    for (schedule, reduction) in Schedule::ALL
        .into_iter()
        .flat_map(|s| reductions.map(|r| (s, r)))
    {
        let trainer = GpuTrainer::new(&ctx, &start, &data, RATE, reduction)?;
        let gpu_loss = trainer.train(&ctx, 1, schedule)?;
        let on_gpu = trainer.network(&ctx)?;
        let difference = largest_difference(&on_cpu, &on_gpu);
        // Sums of 120 products in another order (and FMA on the GPU): a few roundings of f32.
        assert!(
            difference < 1e-5,
            "{schedule:?}: weights differ by {difference}"
        );
        assert!(
            (gpu_loss[0] - cpu_loss[0]).abs() < 1e-5,
            "{schedule:?}, {reduction:?}: loss {} on the GPU, {} on the CPU",
            gpu_loss[0],
            cpu_loss[0]
        );
    }
    Ok(())
}
// ANCHOR_END: gpu_step_test

#[test]
fn the_loss_falls_on_the_gpu_as_on_the_cpu() -> anyhow::Result<()> {
    let ctx = GpuContext::for_tests();
    let data = spirals(3, 40, 7);
    let start = two_layer_mlp(16, 11);
    let steps = 30;
    let cpu = train(&mut start.clone(), &data, steps, RATE)?;
    let reduction = BatchReduction::WorkgroupPerElement;
    let trainer = GpuTrainer::new(&ctx, &start, &data, RATE, reduction)?;
    let gpu = trainer.train(&ctx, steps, Schedule::ReadLossAtEnd)?;
    assert_eq!(gpu.len(), steps);
    assert!(gpu[steps - 1] < 0.8 * gpu[0], "{gpu:?}");
    for (step, (c, g)) in cpu.iter().zip(&gpu).enumerate() {
        // Rounding differences grow a little with every step; they stay far below the fall.
        assert!((c - g).abs() < 1e-3, "step {step}: CPU {c}, GPU {g}");
    }
    // The weights stayed on the GPU across calls: a second call goes on from where it stopped.
    let more = trainer.train(&ctx, 1, Schedule::SubmitPerStep)?;
    assert!(more[0] < gpu[steps - 1], "{} after {:?}", more[0], gpu);
    Ok(())
}

#[test]
fn the_gpu_trainer_refuses_what_it_cannot_train() {
    let ctx = GpuContext::for_tests();
    let data = spirals(3, 4, 7);
    let mut relu_first = two_layer_mlp(8, 1);
    relu_first.layers.insert(0, Layer::Relu);
    assert!(matches!(
        GpuTrainer::new(&ctx, &relu_first, &data, RATE, REDUCTION),
        Err(Error::Unsupported { .. })
    ));
    let mut bad_labels = data.clone();
    bad_labels.labels[2] = 3;
    let err = GpuTrainer::new(&ctx, &two_layer_mlp(8, 1), &bad_labels, RATE, REDUCTION)
        .err()
        .expect("label 3 of 3 classes");
    assert!(err.to_string().contains("labels go from 0 to 2"), "{err}");
}
