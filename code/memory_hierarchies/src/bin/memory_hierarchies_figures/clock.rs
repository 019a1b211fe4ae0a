//! Timing with the thread's CPU clock.
//!
//! On a shared machine a sample's wall time includes every moment the scheduler gave the core to
//! another process. The thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`: user plus kernel time of
//! this thread) counts only the time this thread actually ran, page faults included. Where that
//! clock is not available, the wall clock is used.

use std::time::{Duration, Instant};

use bench_harness::{Stats, measure_durations};

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod thread_cpu {
    use std::time::Duration;

    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }

    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }

    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

    pub fn now() -> Option<Duration> {
        let mut ts = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec with the C layout of 64-bit Linux, and
        // clock_gettime writes nothing else.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
mod thread_cpu {
    pub fn now() -> Option<std::time::Duration> {
        None
    }
}

/// Which clock the figures were timed with, for the sidecars.
pub fn description() -> &'static str {
    if thread_cpu::now().is_some() {
        "timed with the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), so time the shared machine \
         spent running other processes is not counted"
    } else {
        "timed with the wall clock"
    }
}

/// Runs `f` and returns how long it took on this thread's CPU clock (or the wall clock).
pub fn time(f: impl FnOnce()) -> Duration {
    match thread_cpu::now() {
        Some(start) => {
            f();
            thread_cpu::now().map_or(Duration::ZERO, |end| end.saturating_sub(start))
        }
        None => {
            let start = Instant::now();
            f();
            start.elapsed()
        }
    }
}

/// `bench_harness::measure` with the CPU clock: warm-up runs, then timed samples.
pub fn measure(warmup: usize, samples: usize, mut f: impl FnMut()) -> Stats {
    measure_durations(warmup, samples, || time(&mut f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_loop_takes_some_cpu_time() {
        let t = time(|| {
            let mut x = 0u64;
            for i in 0..2_000_000u64 {
                x = bench_harness::black_box(x.wrapping_add(i));
            }
        });
        assert!(t > Duration::ZERO);
        let stats = measure(1, 3, || {
            bench_harness::black_box((0..1000u64).sum::<u64>());
        });
        assert_eq!(stats.samples, 3);
    }
}
