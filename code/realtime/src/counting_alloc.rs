//! A global allocator that counts the allocations made by the current thread, so a test can
//! check that a hot loop allocates nothing: install it with
//! `#[global_allocator] static ALLOC: CountingAllocator = CountingAllocator;`.
//!
//! The count is per thread because a test harness runs other threads (and other tests) at the
//! same time; only the loop's own thread matters.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    // `const` initialisation: reading it never allocates, which an allocator needs.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Forwards to the system allocator and counts `alloc`/`realloc` calls of this thread.
pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to `System`, which upholds GlobalAlloc's contract.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn bump() {
    // `try_with`: during thread teardown the slot may be gone; such allocations are not counted.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

/// Allocations made so far by the calling thread (zero unless `CountingAllocator` is installed).
pub fn allocations_on_this_thread() -> u64 {
    ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}

/// How many allocations `f` made on this thread.
pub fn count_allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = allocations_on_this_thread();
    let result = f();
    (result, allocations_on_this_thread() - before)
}
