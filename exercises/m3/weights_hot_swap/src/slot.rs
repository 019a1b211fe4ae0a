//! Your work: a slot that holds the current model and swaps in new ones.
//!
//! Take every synchronisation type from `super::sync` (e.g. `use super::sync::{Arc, Mutex};`),
//! never from `std::sync` directly: this file is compiled once over std and once over loom.

use super::Snapshot;
use crate::{PublishError, Weights};

/// The current model, shared by one trainer (`publish`) and any number of inference threads
/// (`current`). Add the fields you need.
pub struct WeightSlot {}

impl WeightSlot {
    /// A slot holding `weights` as version 0.
    pub fn new(_weights: Weights) -> Self {
        todo!("store version 0 and the weights, shared so readers can keep them")
    }

    /// Makes `weights` the current model as `version`, which must be larger than the current
    /// version; otherwise nothing changes and the error says which version the slot keeps.
    pub fn publish(&self, _version: u64, _weights: Weights) -> Result<(), PublishError> {
        todo!("check the version and swap in the new weights as one step")
    }

    /// The current model: one published version's number with that same version's weights.
    /// The caller may run inference on it for as long as it likes without holding up `publish`.
    pub fn current(&self) -> Snapshot {
        todo!("hand out a shared reference to the current version")
    }
}
