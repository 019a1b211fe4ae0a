//! Trains the spiral classifier from its fixed seed and writes the weights the crate ships.
//!
//! `cargo run --release -p quantization --bin train_tiny_model` (from the repository root)
//! rewrites `code/quantization/data/spirals_mlp.safetensors`; the same seed and steps give the
//! same file.

use anyhow::Context;
use quantization::model::{Mlp, accuracy, held_out_spirals, spirals, train, write};

fn main() -> anyhow::Result<()> {
    let data = spirals(3, 200, 7);
    let mut model = Mlp::new(&[2, 64, 64, 3], 11);
    let losses = train(&mut model, &data, 3000, 0.5);
    let acc = accuracy(&model.forward(&data.x), &data.labels);
    let test = held_out_spirals(3, 200, 21);
    let test_acc = accuracy(&model.forward(&test.x), &test.labels);
    println!(
        "loss {:.4} → {:.4}; accuracy train {acc:.3}, held out {test_acc:.3}",
        losses[0],
        losses[losses.len() - 1]
    );
    let path = "code/quantization/data/spirals_mlp.safetensors";
    write(&model, path.as_ref())
        .with_context(|| format!("run from the repository root to write {path}"))?;
    println!("wrote {path}");
    Ok(())
}
