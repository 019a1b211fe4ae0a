//! Reference solution: the current version and its weights live together in ONE value behind
//! ONE lock, and the weights are an `Arc`, so the lock is held only to copy a pointer.
//!
//! - No torn model: a published `Weights` is never changed; `publish` swaps in a whole new `Arc`.
//!   A reader that cloned the old `Arc` keeps using the old weights, whole, until it drops them.
//! - No torn (version, weights) pair: both change in the same critical section. Keeping the
//!   version in a separate atomic (to read it without the lock) lets a reader pair one version's
//!   number with another version's weights; the hidden loom models find that.
//! - Versions only go up: the check and the swap happen under the same lock, so two publishers
//!   cannot both pass the check and then overwrite each other in the wrong order.
//!
//! `Mutex` and not `RwLock`: the critical section is one reference-count increment, too short
//! for readers to gain from sharing the lock, and a `Mutex` is the cheaper of the two.

use super::Snapshot;
use super::sync::{Arc, Mutex, PoisonError};
use crate::{PublishError, Weights};

/// The current model, shared by one trainer (`publish`) and any number of inference threads
/// (`current`).
pub struct WeightSlot {
    current: Mutex<Snapshot>,
}

impl WeightSlot {
    /// A slot holding `weights` as version 0.
    pub fn new(weights: Weights) -> Self {
        Self {
            current: Mutex::new(Snapshot {
                version: 0,
                weights: Arc::new(weights),
            }),
        }
    }

    /// Makes `weights` the current model as `version`, which must be larger than the current
    /// version; otherwise nothing changes and the error says which version the slot keeps.
    pub fn publish(&self, version: u64, weights: Weights) -> Result<(), PublishError> {
        // Allocate before taking the lock: readers wait for the lock, not for the allocator.
        let fresh = Snapshot {
            version,
            weights: Arc::new(weights),
        };
        let old = {
            let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
            if version <= current.version {
                return Err(PublishError::Stale {
                    offered: version,
                    current: current.version,
                });
            }
            std::mem::replace(&mut *current, fresh)
        };
        // The old weights are freed here, after the lock is released (or later, by the last
        // reader still using them): freeing a large model never holds up a reader.
        drop(old);
        Ok(())
    }

    /// The current model: one published version's number with that same version's weights.
    /// The caller may run inference on it for as long as it likes without holding up `publish`.
    pub fn current(&self) -> Snapshot {
        // A poisoned lock still holds a whole snapshot: nothing panics between the check and the
        // swap in `publish`, so the value is never half-written.
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}
