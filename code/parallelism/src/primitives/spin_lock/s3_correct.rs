//! Stage 3 (correct): acquire on lock, release on unlock.

use crate::sync::{AtomicBool, Ordering, UnsafeCell, hint};

// ANCHOR: spin_lock
pub struct SpinLock<T> {
    locked: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: the flag gives one thread at a time access to the value, and the Acquire/Release pair
// makes each owner's writes visible to the next one; so sharing the lock only needs `T: Send`.
unsafe impl<T: Send> Sync for SpinLock<T> {}

impl<T> SpinLock<T> {
    /// Runs `f` with exclusive access to the value.
    pub fn lock<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        // Acquire: everything the previous owner wrote before its Release store is visible now.
        while self
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            hint::spin_loop();
        }
        // Unlock even if `f` panics, so one panicking thread does not hang the others.
        struct Unlock<'a>(&'a AtomicBool);
        impl Drop for Unlock<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Release);
            }
        }
        let _unlock = Unlock(&self.locked);
        // SAFETY: we hold the flag, so no other reference to the value exists.
        self.value.with_mut(|p| f(unsafe { &mut *p }))
    }
}
// ANCHOR_END: spin_lock

impl<T> SpinLock<T> {
    pub fn new(value: T) -> Self {
        Self {
            locked: AtomicBool::new(false),
            value: UnsafeCell::new(value),
        }
    }

    pub fn into_inner(self) -> T {
        self.value.into_inner()
    }
}
