//! Stage 2 (correct): Release decrements, Acquire fence before the free, as `std::sync::Arc`.

use std::ops::Deref;
use std::ptr::NonNull;

use crate::sync::{AtomicUsize, Ordering, fence};

// ANCHOR: mini_arc_inner
struct Inner<T> {
    count: AtomicUsize,
    value: T,
}

pub struct MiniArc<T> {
    inner: NonNull<Inner<T>>,
}
// ANCHOR_END: mini_arc_inner

// SAFETY: like Arc: the value is shared between threads (needs Sync) and dropped by whichever
// thread lets go last (needs Send).
unsafe impl<T: Send + Sync> Send for MiniArc<T> {}
unsafe impl<T: Send + Sync> Sync for MiniArc<T> {}

impl<T> MiniArc<T> {
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
        // SAFETY: the allocation lives while any MiniArc (this one included) points at it.
        unsafe { self.inner.as_ref() }
    }

    pub fn count(this: &Self) -> usize {
        this.inner().count.load(Ordering::Relaxed)
    }
}

// ANCHOR: mini_arc_count
impl<T> Clone for MiniArc<T> {
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

impl<T> Drop for MiniArc<T> {
    fn drop(&mut self) {
        // Release: our uses of the value happen-before the decrement...
        if self.inner().count.fetch_sub(1, Ordering::Release) == 1 {
            // ...and Acquire here makes every other thread's decrement, with the uses before
            // it, happen-before the free. Only the last owner pays for the fence.
            fence(Ordering::Acquire);
            // SAFETY: the count reached zero: no other MiniArc points here any more.
            drop(unsafe { Box::from_raw(self.inner.as_ptr()) });
        }
    }
}
// ANCHOR_END: mini_arc_count

impl<T> Deref for MiniArc<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner().value
    }
}
