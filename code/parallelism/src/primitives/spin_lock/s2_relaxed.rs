//! Stage 2 (broken): the flag is taken atomically, but with `Relaxed` ordering.

use crate::sync::{AtomicBool, Ordering, UnsafeCell, hint};

pub struct RelaxedSpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: wrong: Relaxed orderings do not order the data accesses; loom proves it.
unsafe impl<T: Send> Sync for RelaxedSpinLock<T> {}

impl<T> RelaxedSpinLock<T> {
    pub fn new(value: T) -> Self {
        Self {
            locked: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    // ANCHOR: relaxed_lock
    pub fn lock<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        // Only one thread wins the exchange: mutual exclusion of the flag holds...
        while self
            .locked
            .compare_exchange_weak(false, true, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            hint::spin_loop();
        }
        let result = self.value.with_mut(|p| f(unsafe { &mut *p }));
        // ...but BUG: nothing makes the previous owner's writes happen-before ours.
        self.locked.store(false, Ordering::Relaxed);
        result
    }
    // ANCHOR_END: relaxed_lock
}
