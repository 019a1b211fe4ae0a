//! Wrong: the slot keeps the weights by value and `current()` copies them into a fresh `Arc` on
//! every call. Every reader still sees one whole version, and versions only go up, but each read
//! clones the whole model under the lock: the pointer swap that makes reads cheap is gone, and
//! two reads with no publish between them hand out two different copies.

use super::Snapshot;
use super::sync::{Arc, Mutex, PoisonError};
use crate::{PublishError, Weights};

pub struct WeightSlot {
    current: Mutex<(u64, Weights)>,
}

impl WeightSlot {
    pub fn new(weights: Weights) -> Self {
        Self {
            current: Mutex::new((0, weights)),
        }
    }

    pub fn publish(&self, version: u64, weights: Weights) -> Result<(), PublishError> {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        if version <= current.0 {
            return Err(PublishError::Stale {
                offered: version,
                current: current.0,
            });
        }
        *current = (version, weights);
        Ok(())
    }

    pub fn current(&self) -> Snapshot {
        let current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        Snapshot {
            version: current.0,
            weights: Arc::new(current.1.clone()),
        }
    }
}
