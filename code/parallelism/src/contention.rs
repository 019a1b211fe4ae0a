//! Four ways to update one shared value from many threads, with a critical section of a chosen
//! length: the workloads behind the locks figure.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Barrier, Mutex, RwLock};
use std::thread;
use std::time::{Duration, Instant};

/// `rounds` steps of a dependent arithmetic chain: work the compiler cannot skip or overlap,
/// standing for whatever a real critical section computes from the shared value.
#[inline(never)]
pub fn work(seed: u64, rounds: u32) -> u64 {
    let mut x = seed | 1;
    for _ in 0..rounds {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x
}

/// Does the work (its result kept by `black_box`) and returns the increment, 1: every write
/// adds exactly one, so the tests can count the writes.
#[inline(always)]
fn step(seed: u64, rounds: u32) -> u64 {
    std::hint::black_box(work(seed, rounds));
    1
}

/// How the threads share the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// Lock, compute from the value, store the result, unlock.
    Mutex,
    /// Read-mostly: 15 of 16 operations compute under a read lock; one in 16 writes.
    RwLockReadMostly,
    /// Compute outside any lock, then one `fetch_add`: the critical section is one instruction.
    FetchAdd,
    /// Read, compute the new value from it, `compare_exchange`; compute again if another thread
    /// got there first.
    CasLoop,
}

impl Sharing {
    pub const ALL: [Sharing; 4] = [
        Sharing::Mutex,
        Sharing::RwLockReadMostly,
        Sharing::FetchAdd,
        Sharing::CasLoop,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Sharing::Mutex => "Mutex",
            Sharing::RwLockReadMostly => "RwLock (1 write in 16)",
            Sharing::FetchAdd => "atomic fetch_add",
            Sharing::CasLoop => "CAS loop",
        }
    }
}

/// What a run did: its wall time, and how many compare-exchanges failed (CAS loop only).
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub elapsed: Duration,
    pub cas_retries: u64,
    pub final_value: u64,
}

/// The one value every thread updates, in each of the four forms.
struct Shared {
    mutex: Mutex<u64>,
    rwlock: RwLock<u64>,
    atomic: AtomicU64,
}

// ANCHOR: contended
/// Operation `i` of thread `t`: one update done the `sharing` way, with `rounds` of work (`step`
/// works, then returns 1 to add). Returns the CAS loop's failed compare-exchanges (else 0).
#[inline(always)]
fn operate(shared: &Shared, sharing: Sharing, t: u64, i: u64, rounds: u32) -> u64 {
    let mut failed = 0;
    match sharing {
        Sharing::Mutex => {
            let mut v = shared.mutex.lock().unwrap();
            *v += step(*v ^ t, rounds);
        }
        Sharing::RwLockReadMostly if !i.is_multiple_of(16) => {
            let v = shared.rwlock.read().unwrap();
            std::hint::black_box(work(*v ^ t, rounds));
        }
        Sharing::RwLockReadMostly => {
            let mut v = shared.rwlock.write().unwrap();
            *v += step(*v ^ t, rounds);
        }
        Sharing::FetchAdd => {
            let add = step(i ^ t, rounds);
            shared.atomic.fetch_add(add, Ordering::Relaxed);
        }
        Sharing::CasLoop => {
            let mut old = shared.atomic.load(Ordering::Relaxed);
            loop {
                let new = old + step(old ^ t, rounds);
                match shared.atomic.compare_exchange_weak(
                    old,
                    new,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break,
                    Err(seen) => (old, failed) = (seen, failed + 1),
                }
            }
        }
    }
    failed
}
// ANCHOR_END: contended

/// `threads` threads each do `ops` operations on one shared value, each with `rounds` of work.
/// `threads` must be at least 1.
pub fn contend(sharing: Sharing, threads: usize, ops: u64, rounds: u32) -> Run {
    let shared = Shared {
        mutex: Mutex::new(0),
        rwlock: RwLock::new(0),
        atomic: AtomicU64::new(0),
    };
    let retries = AtomicU64::new(0);
    let start = Barrier::new(threads);
    let spans: Vec<(Instant, Instant)> = thread::scope(|s| {
        let workers: Vec<_> = (0..threads as u64)
            .map(|t| {
                let (shared, retries, start) = (&shared, &retries, &start);
                s.spawn(move || {
                    start.wait();
                    let began = Instant::now();
                    let mut failed = 0;
                    for i in 0..ops {
                        failed += operate(shared, sharing, t, i, rounds);
                    }
                    retries.fetch_add(failed, Ordering::Relaxed);
                    (began, Instant::now())
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    // Each thread times itself from the barrier: from the first start to the last finish.
    let first = spans
        .iter()
        .map(|s| s.0)
        .min()
        .expect("at least one thread");
    let last = spans
        .iter()
        .map(|s| s.1)
        .max()
        .expect("at least one thread");
    let elapsed = last - first;
    let final_value = match sharing {
        Sharing::Mutex => shared.mutex.into_inner().unwrap(),
        Sharing::RwLockReadMostly => shared.rwlock.into_inner().unwrap(),
        Sharing::FetchAdd | Sharing::CasLoop => shared.atomic.into_inner(),
    };
    Run {
        elapsed,
        cas_retries: retries.into_inner(),
        final_value,
    }
}

/// How many rounds of [`work`] take about `target` on this machine (at least 1 for a non-zero
/// target), measured over a few million rounds.
pub fn rounds_for(target: Duration) -> u32 {
    if target.is_zero() {
        return 0;
    }
    const PROBE: u32 = 4_000_000;
    let started = Instant::now();
    std::hint::black_box(work(std::hint::black_box(7), PROBE));
    let per_round = started.elapsed().as_secs_f64() / f64::from(PROBE);
    ((target.as_secs_f64() / per_round).round() as u32).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_update_lands_exactly_once() {
        for sharing in Sharing::ALL {
            let run = contend(sharing, 4, 1_000, 3);
            let writes = match sharing {
                Sharing::RwLockReadMostly => 4 * (0..1_000).step_by(16).count() as u64,
                _ => 4 * 1_000,
            };
            assert_eq!(run.final_value, writes, "{sharing:?}");
        }
    }

    #[test]
    fn rounds_grow_with_the_target() {
        assert_eq!(rounds_for(Duration::ZERO), 0);
        let short = rounds_for(Duration::from_nanos(100));
        let long = rounds_for(Duration::from_micros(10));
        assert!(short >= 1 && long > short, "{short} {long}");
    }
}
