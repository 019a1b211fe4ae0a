//! Stage 1 (broken): a Relaxed decrement and no fence before the free.

use std::ops::Deref;
use std::ptr::NonNull;

use crate::sync::{AtomicUsize, Ordering};

// ANCHOR: relaxed_arc
struct Inner<T> {
    count: AtomicUsize,
    value: T,
}

pub struct RelaxedArc<T> {
    inner: NonNull<Inner<T>>,
}

// SAFETY: claimed as for Arc, but the Relaxed drop below breaks it; loom proves it.
unsafe impl<T: Send + Sync> Send for RelaxedArc<T> {}
unsafe impl<T: Send + Sync> Sync for RelaxedArc<T> {}

impl<T> RelaxedArc<T> {
    pub fn new(value: T) -> Self {
        let inner = Box::new(Inner {
            count: AtomicUsize::new(1),
            value,
        });
        Self {
            inner: NonNull::from(Box::leak(inner)),
        }
    }

    fn inner(&self) -> &Inner<T> {
        // SAFETY: the allocation lives while any RelaxedArc (this one included) points at it.
        unsafe { self.inner.as_ref() }
    }

    pub fn count(this: &Self) -> usize {
        this.inner().count.load(Ordering::Relaxed)
    }
}

impl<T> Clone for RelaxedArc<T> {
    fn clone(&self) -> Self {
        // Relaxed is enough here: we already hold a reference, so nothing can free the value
        // meanwhile, and no data is handed over by an increment.
        let old = self.inner().count.fetch_add(1, Ordering::Relaxed);
        // Like std: abort rather than wrap around after a leak of 2^63 clones.
        if old > usize::MAX / 2 {
            std::process::abort();
        }
        Self { inner: self.inner }
    }
}

impl<T> Drop for RelaxedArc<T> {
    fn drop(&mut self) {
        // BUG: a Relaxed decrement orders nothing: the last owner can free the value while
        // another thread's use of it is not yet visible (for the value's drop, still going on).
        if self.inner().count.fetch_sub(1, Ordering::Relaxed) == 1 {
            // SAFETY: the count reached zero: no other RelaxedArc points here any more.
            drop(unsafe { Box::from_raw(self.inner.as_ptr()) });
        }
    }
}

impl<T> Deref for RelaxedArc<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner().value
    }
}
// ANCHOR_END: relaxed_arc
