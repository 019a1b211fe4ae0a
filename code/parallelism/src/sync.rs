//! The one place that decides which synchronisation types the primitives use.
//!
//! Under `--cfg loom` they are loom's model-checked doubles; otherwise they are the standard
//! library's. The primitives import from here only, so the code loom checks is the code that
//! runs in the stress tests and the benchmarks.

// ANCHOR: shim
#[cfg(loom)]
pub(crate) use loom::{
    hint,
    sync::Arc,
    sync::atomic::{AtomicBool, AtomicUsize, Ordering, fence},
};

#[cfg(not(loom))]
pub(crate) use std::{
    hint,
    sync::Arc,
    sync::atomic::{AtomicBool, AtomicUsize, Ordering, fence},
};

#[cfg(loom)]
pub(crate) use loom::cell::UnsafeCell;

/// `std::cell::UnsafeCell` with loom's closure-based API, so that both compile from one source.
/// Loom needs the closures to know when an access starts and ends; here they cost nothing.
#[cfg(not(loom))]
#[derive(Debug)]
pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);
// ANCHOR_END: shim

#[cfg(not(loom))]
impl<T> UnsafeCell<T> {
    pub(crate) const fn new(value: T) -> Self {
        Self(std::cell::UnsafeCell::new(value))
    }

    pub(crate) fn into_inner(self) -> T {
        self.0.into_inner()
    }

    #[inline(always)]
    pub(crate) fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        f(self.0.get())
    }

    #[inline(always)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }
}
