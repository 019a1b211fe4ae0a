//! Stage 3: a periodic loop, paced three ways.
//!
//! Sleeping a fixed period after each iteration makes each wake-up's lateness (and any work)
//! part of the next period, so the loop drifts further behind with every period. Sleeping until
//! an absolute deadline, `start + n * period`, lets no lateness carry over: the loop is late by
//! one wake-up at most, never by the sum of them. `clock_nanosleep(CLOCK_MONOTONIC,
//! TIMER_ABSTIME)` takes the deadline itself; computing `deadline - now` and sleeping that does
//! nearly the same, but can be preempted between the subtraction and the sleep.

use std::time::{Duration, Instant};

use super::RtError;
use crate::latency::{LatencyRecorder, LatencySummary};

/// How the loop waits for its next period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacing {
    /// `thread::sleep(period)` after each iteration.
    RelativeSleep,
    /// `thread::sleep(deadline - now)`: a relative sleep aimed at an absolute deadline.
    SleepToDeadline,
    /// `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline)` (Linux).
    AbsoluteDeadline,
}

impl Pacing {
    pub const ALL: [Pacing; 3] = [
        Pacing::RelativeSleep,
        Pacing::SleepToDeadline,
        Pacing::AbsoluteDeadline,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Self::RelativeSleep => "thread::sleep(period)",
            Self::SleepToDeadline => "thread::sleep(deadline - now)",
            Self::AbsoluteDeadline => "clock_nanosleep(TIMER_ABSTIME)",
        }
    }
}

/// What one paced loop measured: how late each wake-up was against the ideal schedule
/// `start + (n + 1) * period`.
#[derive(Clone, Debug)]
pub struct DriftRun {
    pub lateness: LatencySummary,
    /// Lateness of the last wake-up: the drift accumulated over the run.
    pub final_drift: Duration,
    /// Lateness of every wake-up, in order.
    pub trace: Vec<Duration>,
}

// ANCHOR: sleep_until
/// Sleeps until `deadline` on the monotonic clock that `Instant` reads on Linux.
#[cfg(target_os = "linux")]
pub fn sleep_until_absolute(deadline: libc::timespec) -> Result<(), RtError> {
    loop {
        // SAFETY: deadline is a valid timespec; the remainder is unused with TIMER_ABSTIME.
        let rc = unsafe {
            libc::clock_nanosleep(
                libc::CLOCK_MONOTONIC,
                libc::TIMER_ABSTIME,
                &deadline,
                std::ptr::null_mut(),
            )
        };
        match rc {
            0 => return Ok(()),
            // A signal woke us early: the deadline has not moved, so sleep again.
            libc::EINTR => continue,
            e => {
                return Err(RtError::Os {
                    what: "clock_nanosleep",
                    source: std::io::Error::from_raw_os_error(e),
                });
            }
        }
    }
}
// ANCHOR_END: sleep_until

#[cfg(target_os = "linux")]
fn monotonic_now() -> libc::timespec {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid timespec; CLOCK_MONOTONIC exists on every Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts
}

#[cfg(target_os = "linux")]
fn add(ts: libc::timespec, d: Duration) -> libc::timespec {
    let nanos = ts.tv_nsec as u64 + u64::from(d.subsec_nanos());
    libc::timespec {
        tv_sec: ts.tv_sec + d.as_secs() as libc::time_t + (nanos / 1_000_000_000) as libc::time_t,
        tv_nsec: (nanos % 1_000_000_000) as _,
    }
}

// ANCHOR: paced
/// Runs `periods` periods of `period`, each doing nothing but waiting as `pacing` says, and
/// records each wake-up's lateness against the ideal schedule.
pub fn paced_loop(pacing: Pacing, period: Duration, periods: u32) -> Result<DriftRun, RtError> {
    #[cfg(target_os = "linux")]
    let start_ts = monotonic_now();
    let start = Instant::now();
    let mut trace = Vec::with_capacity(periods as usize);
    for n in 1..=periods {
        let deadline = start + period * n;
        match pacing {
            Pacing::RelativeSleep => std::thread::sleep(period),
            Pacing::SleepToDeadline => {
                std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            }
            #[cfg(target_os = "linux")]
            Pacing::AbsoluteDeadline => sleep_until_absolute(add(start_ts, period * n))?,
            #[cfg(not(target_os = "linux"))]
            Pacing::AbsoluteDeadline => {
                return Err(RtError::Unsupported {
                    what: "clock_nanosleep with TIMER_ABSTIME",
                });
            }
        }
        trace.push(Instant::now().saturating_duration_since(deadline));
    }
    let mut recorder = LatencyRecorder::new();
    for &late in &trace {
        recorder.record(late);
    }
    Ok(DriftRun {
        lateness: recorder.summary(),
        final_drift: trace.last().copied().unwrap_or_default(),
        trace,
    })
}
// ANCHOR_END: paced

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn adding_carries_nanoseconds_into_seconds() {
        let ts = libc::timespec {
            tv_sec: 5,
            tv_nsec: 999_999_000,
        };
        let t = add(ts, Duration::new(2, 2_000));
        assert_eq!((t.tv_sec, t.tv_nsec), (8, 1_000));
    }

    #[test]
    fn every_period_is_traced_and_none_wakes_early() {
        for pacing in Pacing::ALL {
            let run = paced_loop(pacing, Duration::from_micros(500), 5);
            #[cfg(not(target_os = "linux"))]
            if pacing == Pacing::AbsoluteDeadline {
                assert!(run.is_err());
                continue;
            }
            let run = run.unwrap();
            assert_eq!(run.trace.len(), 5, "{pacing:?}");
            assert_eq!(run.lateness.iterations, 5);
            assert_eq!(run.final_drift, run.trace[4]);
        }
    }
}
