//! Threads: spawn and join, scoped threads, and what `Send` and `Sync` promise.

use std::thread;

// ANCHOR: spawn_join
/// Sums `data` on `threads` spawned threads. Each thread owns its part (moved in), so the
/// closures are `'static`, as `thread::spawn` requires.
pub fn sum_with_spawn(data: Vec<u64>, threads: usize) -> u64 {
    let threads = threads.max(1);
    let chunk = data.len().div_ceil(threads).max(1);
    let handles: Vec<thread::JoinHandle<u64>> = data
        .chunks(chunk)
        .map(|part| {
            let part = part.to_vec(); // a copy the thread can own
            thread::spawn(move || part.iter().sum())
        })
        .collect();
    // join() waits and hands back the thread's result (or its panic, as an Err).
    handles.into_iter().map(|h| h.join().unwrap()).sum()
}
// ANCHOR_END: spawn_join

// ANCHOR: scoped
/// The same sum with scoped threads: they may borrow `data`, because the scope joins them all
/// before it returns, so no thread can outlive the borrow. No copies.
pub fn sum_with_scope(data: &[u64], threads: usize) -> u64 {
    let chunk = data.len().div_ceil(threads.max(1)).max(1);
    thread::scope(|s| {
        let handles: Vec<_> = data
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().sum::<u64>()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}
// ANCHOR_END: scoped

// ANCHOR: panic_join
/// Runs `job` on its own named thread and turns a panic into an error message: a panic ends
/// only the thread it happens on, and `join` hands it to the caller as an `Err`.
pub fn run_isolated<T: Send + 'static>(
    name: &str,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let handle = thread::Builder::new()
        .name(name.to_owned())
        .spawn(job)
        .map_err(|e| format!("could not start thread {name}: {e}"))?;
    handle.join().map_err(|payload| {
        // A panic's payload is the `&str` or `String` given to panic!, boxed as `dyn Any`.
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".into());
        format!("thread {name} panicked: {message}")
    })
}
// ANCHOR_END: panic_join

// ANCHOR: thread_local
thread_local! {
    /// Each thread has its own counter, created on its first use and dropped when it exits:
    /// no lock, no sharing, no false sharing.
    static CALLS_HERE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a call on the current thread and returns that thread's count so far.
pub fn count_call() -> u64 {
    CALLS_HERE.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}
// ANCHOR_END: thread_local

// ANCHOR: available
/// How many threads can run at once here: the logical CPUs this process may use (cgroup quotas
/// and affinity masks included on Linux), or 1 if the system will not say.
pub fn worker_count() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}
// ANCHOR_END: available

// ANCHOR: amdahl
/// A job with a parallel part (`items` independent pieces of `rounds` work each, split over
/// `threads` scoped threads) followed by a serial part (one chain of `serial_rounds`, which
/// needs every piece's result first).
pub fn amdahl_job(threads: usize, items: u64, rounds: u32, serial_rounds: u32) -> u64 {
    use crate::contention::work;
    let threads = threads.max(1) as u64;
    let per_thread = items.div_ceil(threads);
    let partial: u64 = thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let range = (t * per_thread).min(items)..((t + 1) * per_thread).min(items);
                s.spawn(move || range.map(|i| work(i, rounds)).fold(0, u64::wrapping_add))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap())
            .fold(0, u64::wrapping_add)
    });
    work(partial, serial_rounds)
}

/// Amdahl's law: the speed-up on `p` processors of a job whose serial fraction is `s`.
pub fn amdahl_speedup(s: f64, p: f64) -> f64 {
    1.0 / (s + (1.0 - s) / p)
}

/// The serial fraction that best fits measured `(threads, speed-up)` points, by least squares
/// on 1/speed-up, which is linear in `s`: 1/S(p) - 1/p = s (1 - 1/p). Points with p = 1 carry
/// no information and are skipped; `None` if no point has p > 1.
pub fn fit_serial_fraction(points: &[(f64, f64)]) -> Option<f64> {
    let (num, den) = points
        .iter()
        .filter(|(p, _)| *p > 1.0)
        .map(|&(p, speedup)| (1.0 / speedup - 1.0 / p, 1.0 - 1.0 / p))
        .fold((0.0, 0.0), |(n, d), (y, x)| (n + x * y, d + x * x));
    (den > 0.0).then(|| num / den)
}
// ANCHOR_END: amdahl

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sums_agree_with_the_sequential_one() {
        for n in [0, 1, 7, 1000] {
            let data: Vec<u64> = (0..n).collect();
            let expected: u64 = data.iter().sum();
            for threads in [1, 2, 3, 8] {
                assert_eq!(sum_with_spawn(data.clone(), threads), expected);
                assert_eq!(sum_with_scope(&data, threads), expected);
            }
        }
    }

    // ANCHOR: panic_test
    #[test]
    fn a_panicking_thread_becomes_an_error_and_the_caller_goes_on() {
        let failed = run_isolated("parser", || -> u32 { panic!("bad input on line 3") });
        assert_eq!(
            failed,
            Err("thread parser panicked: bad input on line 3".into())
        );
        let n = 3;
        let formatted = run_isolated("formatter", move || -> u32 { panic!("{n} errors") });
        assert_eq!(formatted, Err("thread formatter panicked: 3 errors".into()));
        let named = run_isolated("worker-7", || thread::current().name().map(str::to_owned));
        assert_eq!(named, Ok(Some("worker-7".into())));
    }
    // ANCHOR_END: panic_test

    #[test]
    fn each_thread_counts_its_own_calls() {
        let here = count_call();
        let there = thread::spawn(|| (count_call(), count_call(), count_call()));
        assert_eq!(there.join().unwrap(), (1, 2, 3));
        assert_eq!(count_call(), here + 1);
        assert!(worker_count() >= 1);
    }

    #[test]
    fn the_amdahl_job_gives_one_answer_and_the_fit_recovers_s() {
        let one = amdahl_job(1, 1_000, 10, 100);
        for threads in [2, 3, 7, 2_000] {
            assert_eq!(amdahl_job(threads, 1_000, 10, 100), one);
        }
        let points: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 16.0]
            .iter()
            .map(|&p| (p, amdahl_speedup(0.05, p)))
            .collect();
        assert!((fit_serial_fraction(&points).unwrap() - 0.05).abs() < 1e-12);
        assert_eq!(fit_serial_fraction(&[(1.0, 1.0)]), None);
        assert!((amdahl_speedup(0.0, 8.0) - 8.0).abs() < 1e-12);
    }
}
