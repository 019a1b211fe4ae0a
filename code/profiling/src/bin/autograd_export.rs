//! Writes a network, a batch of spiral points and this course's gradients for them as JSON, for
//! `bench/autograd_check.py` to compare with PyTorch's autograd on the same network.
//!
//! ```text
//! cargo run --release -p profiling_lab --bin autograd_export -- --out autograd_check.json
//! python3 code/profiling/bench/autograd_check.py --json autograd_check.json --out figures
//! ```
//!
//! The network is trained for `--steps` first, so that the biases are no longer zero and the
//! ReLUs no longer split the points as they did at random initialisation.

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use profiling_lab::training::{GradientCheck, train, two_layer_mlp};
use quantization::model::spirals;

#[derive(Parser)]
struct Args {
    /// Where to write the JSON.
    #[arg(long)]
    out: PathBuf,
    /// Hidden units.
    #[arg(long, default_value_t = 64)]
    hidden: usize,
    /// Points per class in the batch (three classes).
    #[arg(long, default_value_t = 100)]
    per_class: usize,
    /// Training steps before the gradients are recorded.
    #[arg(long, default_value_t = 100)]
    steps: usize,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let data = spirals(3, args.per_class, 7);
    let mut net = two_layer_mlp(args.hidden, 11);
    train(&mut net, &data, args.steps, 1.0)?;
    let check = GradientCheck::record(&net, &data)?;
    let json = serde_json::to_string(&check)?;
    std::fs::write(&args.out, json).with_context(|| format!("writing {}", args.out.display()))?;
    println!(
        "wrote {} (loss {}, {} points)",
        args.out.display(),
        check.loss,
        check.labels.len()
    );
    Ok(())
}
