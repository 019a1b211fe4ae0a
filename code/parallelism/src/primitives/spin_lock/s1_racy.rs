//! Stage 1 (broken): the flag is read and then written in two separate steps.

use crate::sync::{AtomicBool, Ordering, UnsafeCell, hint};

pub struct RacySpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: this claim is exactly what the lock fails to uphold; loom proves it wrong.
unsafe impl<T: Send> Sync for RacySpinLock<T> {}

impl<T> RacySpinLock<T> {
    pub fn new(value: T) -> Self {
        Self {
            locked: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    // ANCHOR: racy_lock
    /// Runs `f` with the value, "locked".
    pub fn lock<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        // BUG: between the load that sees `false` and the store of `true`, another thread can
        // do the same load, and both go on believing they hold the lock.
        while self.locked.load(Ordering::Acquire) {
            hint::spin_loop();
        }
        self.locked.store(true, Ordering::Release);
        let result = self.value.with_mut(|p| f(unsafe { &mut *p }));
        self.locked.store(false, Ordering::Release);
        result
    }
    // ANCHOR_END: racy_lock
}
