//! What a waiting task costs against what a waiting thread costs, in resident memory (the
//! pages actually in RAM) and in address space, read from `/proc/self/status` (Linux only).
//! Each measurement should run in a fresh process: freed memory is not always returned to the
//! OS, so a second measurement in the same process would start from a different baseline.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::s3_executor::Executor;

/// Resident set size and virtual size of this process in KiB, or `None` off Linux.
pub fn rss_and_vm_kib() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((field("VmRSS:")?, field("VmSize:")?))
}

/// One measurement: `started` waiters were all waiting when memory was read the second time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaitersSample {
    pub requested: usize,
    pub started: usize,
    pub before_kib: (u64, u64),
    pub after_kib: (u64, u64),
    /// From the first spawn until every waiter had started waiting.
    pub create_s: f64,
}

impl WaitersSample {
    /// Resident bytes added per waiter.
    pub fn rss_per_waiter(&self) -> f64 {
        (self.after_kib.0 as f64 - self.before_kib.0 as f64) * 1024.0 / self.started.max(1) as f64
    }
    /// Address-space bytes added per waiter (reserved, not necessarily in RAM).
    pub fn vm_per_waiter(&self) -> f64 {
        (self.after_kib.1 as f64 - self.before_kib.1 as f64) * 1024.0 / self.started.max(1) as f64
    }
}

fn memory() -> (u64, u64) {
    rss_and_vm_kib().unwrap_or((0, 0))
}

// ANCHOR: waiter
/// What each waiting task runs: wait until the shared `Notify` is told to wake everyone.
pub async fn waiter(notify: Arc<tokio::sync::Notify>) {
    notify.notified().await;
}

/// The same, and it counts itself as waiting first (so the caller knows when all wait).
pub async fn counted_waiter(notify: Arc<tokio::sync::Notify>, started: Arc<AtomicUsize>) {
    let notified = notify.notified();
    started.fetch_add(1, Ordering::Relaxed);
    notified.await;
}
// ANCHOR_END: waiter

// ANCHOR: tokio_waiters
/// `n` tokio tasks on a single-threaded runtime, each waiting on one shared `Notify`.
pub fn tokio_waiters(n: usize) -> WaitersSample {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let (notify, started) = (
            Arc::new(tokio::sync::Notify::new()),
            Arc::new(AtomicUsize::new(0)),
        );
        let mut handles = Vec::with_capacity(n);
        let before = memory();
        let start = Instant::now();
        for _ in 0..n {
            let (notify, started) = (notify.clone(), started.clone());
            handles.push(tokio::spawn(counted_waiter(notify, started)));
        }
        while started.load(Ordering::Relaxed) < n {
            tokio::task::yield_now().await; // lets every task run up to its await
        }
        let create_s = start.elapsed().as_secs_f64();
        let after = memory();
        notify.notify_waiters();
        for h in handles {
            h.await.expect("a waiting task does not panic");
        }
        WaitersSample {
            requested: n,
            started: n,
            before_kib: before,
            after_kib: after,
            create_s,
        }
    })
}
// ANCHOR_END: tokio_waiters

/// `n` tasks on this crate's executor, each waiting on one shared `Notify`; the last task
/// reads memory (the queue is FIFO: every waiter has been polled once by then) and wakes them.
pub fn executor_waiters(n: usize) -> WaitersSample {
    let notify = Arc::new(tokio::sync::Notify::new());
    let result = Arc::new(Mutex::new(None));
    let mut executor = Executor::new();
    let before = memory();
    let start = Instant::now();
    for _ in 0..n {
        let notify = notify.clone();
        executor.spawn(waiter(notify));
    }
    let (n2, r) = (notify.clone(), result.clone());
    executor.spawn(async move {
        let create_s = start.elapsed().as_secs_f64();
        *r.lock().expect("not poisoned") = Some((memory(), create_s));
        n2.notify_waiters();
    });
    executor.run();
    let (after, create_s) = result
        .lock()
        .expect("not poisoned")
        .expect("the last task ran");
    WaitersSample {
        requested: n,
        started: n,
        before_kib: before,
        after_kib: after,
        create_s,
    }
}

// ANCHOR: thread_waiters
/// `n` OS threads, each blocked on one shared gate, with `stack` bytes of stack (`None`: Rust's
/// default, 2 MiB). If the OS refuses a thread (a limit on threads or memory), the sample says
/// how many started.
pub fn thread_waiters(n: usize, stack: Option<usize>) -> WaitersSample {
    let gate = Arc::new((Mutex::new(false), Condvar::new(), AtomicUsize::new(0)));
    let mut handles = Vec::with_capacity(n);
    let before = memory();
    let start = Instant::now();
    for _ in 0..n {
        let gate = gate.clone();
        let builder = std::thread::Builder::new();
        let builder = match stack {
            Some(bytes) => builder.stack_size(bytes),
            None => builder,
        };
        let spawned = builder.spawn(move || {
            let (open, cv, started) = &*gate;
            let mut open_now = open.lock().expect("not poisoned");
            started.fetch_add(1, Ordering::SeqCst);
            while !*open_now {
                open_now = cv.wait(open_now).expect("not poisoned");
            }
        });
        match spawned {
            Ok(h) => handles.push(h),
            Err(_) => break, // the OS said no: measure what we have
        }
    }
    while gate.2.load(Ordering::SeqCst) < handles.len() {
        std::thread::yield_now();
    }
    let create_s = start.elapsed().as_secs_f64();
    let after = memory();
    *gate.0.lock().expect("not poisoned") = true;
    gate.1.notify_all();
    let started = handles.len();
    for h in handles {
        h.join().expect("a waiting thread does not panic");
    }
    WaitersSample {
        requested: n,
        started,
        before_kib: before,
        after_kib: after,
        create_s,
    }
}
// ANCHOR_END: thread_waiters

#[cfg(test)]
mod tests {
    use super::*;

    /// The two tests read this process's memory: under `cargo test` (one process, many test
    /// threads) they must not run at the same time. nextest runs each test in its own process.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    #[test]
    fn every_kind_of_waiter_starts_and_finishes() {
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        for sample in [
            tokio_waiters(2000),
            executor_waiters(2000),
            thread_waiters(50, None),
            thread_waiters(50, Some(64 * 1024)),
        ] {
            assert_eq!(sample.started, sample.requested, "{sample:?}");
            assert!(sample.create_s > 0.0);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_waiting_thread_reserves_far_more_address_space_than_a_task() {
        // Address space is reserved deterministically (a stack per thread, 2 MiB by default
        // unless RUST_MIN_STACK says otherwise), unlike resident pages.
        let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        assert!(rss_and_vm_kib().is_some());
        let threads = thread_waiters(64, None);
        let small = thread_waiters(64, Some(64 * 1024));
        assert!(
            small.vm_per_waiter() < threads.vm_per_waiter(),
            "{small:?} {threads:?}"
        );
        let tasks = tokio_waiters(20_000);
        assert!(threads.vm_per_waiter() > 64.0 * 1024.0, "{threads:?}");
        // Relative, so that threads started by other tests in this process cannot tip it over.
        assert!(
            tasks.vm_per_waiter() * 20.0 < threads.vm_per_waiter(),
            "{tasks:?} {threads:?}"
        );
    }
}
