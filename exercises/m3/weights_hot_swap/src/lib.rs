//! Exercise: hot-swap a model's weights. A trainer thread publishes new weights while an inference
//! thread keeps answering with whatever weights are current; the inference thread must never see
//! a torn model (half old, half new, or one version's number with another's weights), and the
//! versions it sees must never go down.
//!
//! Your work is `src/slot.rs`: the `WeightSlot` type. This file compiles it twice, against two
//! sets of synchronisation primitives with the same names:
//! - [`std_slot`]: `std::sync`, for real threads (and for your program);
//! - [`loom_slot`]: `loom::sync`, whose types only work inside `loom::model`, where loom tries
//!   every interleaving of the threads.
//!
//! `slot.rs` takes its `Arc`, `Mutex`, `RwLock` and atomics from `super::sync`, so the same code
//! runs under both. This file, `std_slot.rs` and `loom_slot.rs` are given: the grader always uses
//! the course's copies.

// Loading `slot.rs` twice is the point: one source, two sets of primitives.
#![allow(clippy::duplicate_mod)]

pub mod loom_slot;
pub mod std_slot;

pub use std_slot::WeightSlot;

/// How many numbers the hidden layer has: a 2 → 4 → 1 MLP, 2·4 weights and 4 biases.
pub const HIDDEN_LEN: usize = 12;
/// How many numbers the output layer has: 4·1 weights and 1 bias.
pub const OUTPUT_LEN: usize = 5;

/// The weights of a tiny MLP. A trainer builds a whole new `Weights` for every version; nothing
/// changes a `Weights` once it is published.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub hidden: Vec<f32>,
    pub output: Vec<f32>,
}

impl Weights {
    /// Weights whose every number is `value`: tests publish version `k` as `filled(k as f32)`,
    /// so a snapshot is whole exactly when all its numbers equal its version.
    pub fn filled(value: f32) -> Self {
        Self {
            hidden: vec![value; HIDDEN_LEN],
            output: vec![value; OUTPUT_LEN],
        }
    }

    /// `Some(v)` when every number is `v`; `None` for a mix (a torn model, for the tests).
    pub fn uniform_value(&self) -> Option<f32> {
        let first = *self.hidden.first()?;
        let mut all = self.hidden.iter().chain(&self.output);
        all.all(|&x| x == first).then_some(first)
    }
}

/// What `current()` returns: the weights of one published version and that version's number.
/// `W` is the `Arc<Weights>` of the backend (`std_slot::Snapshot` or `loom_slot::Snapshot`).
#[derive(Clone, Debug)]
pub struct Snapshot<W> {
    /// 0 for the weights the slot was created with, then whatever `publish` was given.
    pub version: u64,
    pub weights: W,
}

/// Why `publish` refused new weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PublishError {
    #[error(
        "version {offered} is not newer than the published version {current}: \
         publish versions in increasing order (the slot keeps version {current})"
    )]
    Stale { offered: u64, current: u64 },
}
