//! Publishing data with fences instead of ordered atomic operations.
//!
//! [`FencedSlot`] writes the data, then a `Release` fence, then raises the flag with a `Relaxed`
//! store; the reader loads the flag `Relaxed` and puts an `Acquire` fence before reading the
//! data. A Release fence followed by a store, read by a load followed by an Acquire fence,
//! synchronises exactly as a Release store read by an Acquire load would. [`UnfencedSlot`] is
//! the same code without the fences: loom finds the reader seeing the flag but not the data.
//! Fences pay off when one fence can cover several flags, or a loop's many `Relaxed` loads.

use crate::sync::{AtomicBool, Ordering, UnsafeCell, fence};

// ANCHOR: fenced
pub struct FencedSlot {
    data: UnsafeCell<u64>,
    claimed: AtomicBool,
    ready: AtomicBool,
}

// SAFETY: `data` is written only by the one `publish` that claims the slot, before `ready` is
// raised, and read only after `ready` is seen raised; the fences order those accesses.
unsafe impl Sync for FencedSlot {}

impl FencedSlot {
    pub fn new() -> Self {
        Self {
            data: UnsafeCell::new(0),
            claimed: AtomicBool::new(false),
            ready: AtomicBool::new(false),
        }
    }

    /// Publishes `value`; returns false, writing nothing, if a value was already published.
    pub fn publish(&self, value: u64) -> bool {
        if self.claimed.swap(true, Ordering::Relaxed) {
            return false; // a second writer would race with readers of the first value
        }
        self.data.with_mut(|p| unsafe { *p = value });
        fence(Ordering::Release);
        self.ready.store(true, Ordering::Relaxed);
        true
    }

    pub fn try_read(&self) -> Option<u64> {
        if !self.ready.load(Ordering::Relaxed) {
            return None;
        }
        fence(Ordering::Acquire);
        Some(self.data.with(|p| unsafe { *p }))
    }
}
// ANCHOR_END: fenced

impl Default for FencedSlot {
    fn default() -> Self {
        Self::new()
    }
}

/// The broken twin: the same flag, no fences.
pub struct UnfencedSlot {
    data: UnsafeCell<u64>,
    ready: AtomicBool,
}

// SAFETY: none, on purpose: nothing orders the data write before the flag. Loom shows it.
unsafe impl Sync for UnfencedSlot {}

impl UnfencedSlot {
    pub fn new() -> Self {
        Self {
            data: UnsafeCell::new(0),
            ready: AtomicBool::new(false),
        }
    }

    pub fn publish(&self, value: u64) {
        self.data.with_mut(|p| unsafe { *p = value });
        self.ready.store(true, Ordering::Relaxed);
    }

    pub fn try_read(&self) -> Option<u64> {
        if !self.ready.load(Ordering::Relaxed) {
            return None;
        }
        Some(self.data.with(|p| unsafe { *p }))
    }
}

impl Default for UnfencedSlot {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn a_second_publish_is_refused_and_the_first_value_stays() {
        let slot = FencedSlot::new();
        assert!(slot.publish(1));
        assert!(!slot.publish(2));
        assert_eq!(slot.try_read(), Some(1));
    }

    #[test]
    fn a_reader_that_sees_the_flag_sees_the_data() {
        for round in 0..200 {
            let slot = FencedSlot::new();
            let seen = std::thread::scope(|s| {
                s.spawn(|| slot.publish(round));
                loop {
                    if let Some(v) = slot.try_read() {
                        break v;
                    }
                    std::hint::spin_loop();
                }
            });
            assert_eq!(seen, round);
        }
    }
}
