//! Global allocators that count, so a test or a workload can show how often a loop allocates.
//! Install one with `#[global_allocator] static ALLOC: CountingAllocator = CountingAllocator;`.
//!
//! - [`CountingAllocator`] counts per thread: a test harness runs other threads (and other
//!   tests) at the same time, and only the loop's own thread matters;
//! - [`EveryThreadCountingAllocator`] counts the whole process, for work spread over threads of
//!   its own (a pipeline's stages); the program or test file must then run nothing else.
//!
//! Both forward every call unchanged to the system allocator; the count costs one add per call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

thread_local! {
    // `const` initialisation: reading it never allocates, which an allocator needs.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

static PROCESS_ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

/// The system allocator, forwarding every call and calling `count` on each `alloc`,
/// `alloc_zeroed` and `realloc`.
macro_rules! counting_allocator {
    ($name:ident, $count:expr) => {
        // SAFETY: every call is forwarded unchanged to `System`, which upholds GlobalAlloc's
        // contract; counting touches no memory the allocator hands out.
        unsafe impl GlobalAlloc for $name {
            unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
                $count();
                unsafe { System.alloc(layout) }
            }

            unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
                $count();
                unsafe { System.alloc_zeroed(layout) }
            }

            unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
                $count();
                unsafe { System.realloc(ptr, layout, new_size) }
            }

            unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
                unsafe { System.dealloc(ptr, layout) }
            }
        }
    };
}

/// Forwards to the system allocator and counts `alloc`/`realloc` calls of the calling thread.
pub struct CountingAllocator;

counting_allocator!(CountingAllocator, bump_this_thread);

/// Forwards to the system allocator and counts `alloc`/`realloc` calls of every thread.
pub struct EveryThreadCountingAllocator;

counting_allocator!(EveryThreadCountingAllocator, bump_process);

fn bump_this_thread() {
    // `try_with`: during thread teardown the slot may be gone; such allocations are not counted.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

fn bump_process() {
    PROCESS_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
}

/// Allocations made so far by the calling thread (zero unless `CountingAllocator` is installed).
pub fn allocations_on_this_thread() -> u64 {
    ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}

/// Allocations made so far by every thread (zero unless `EveryThreadCountingAllocator` is
/// installed).
pub fn allocations_in_process() -> u64 {
    PROCESS_ALLOCATIONS.load(Ordering::Relaxed)
}

/// How many allocations `f` made on this thread.
pub fn count_allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = allocations_on_this_thread();
    let result = f();
    (result, allocations_on_this_thread() - before)
}
