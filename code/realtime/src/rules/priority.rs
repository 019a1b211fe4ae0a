//! Priority under load: how late a sleeping periodic thread wakes up while every core is busy
//! with spinning threads, with the normal policy (`SCHED_OTHER`) and with real-time priority
//! (`SCHED_FIFO`), each unpinned and pinned to one core.
//!
//! The measured thread only ever sleeps and reads the clock: a `SCHED_FIFO` thread that spun
//! would starve its core (Linux keeps 5 % of each second for normal threads, but that is a safety
//! net, not a budget). Real-time priority needs `CAP_SYS_NICE` or a raised `RLIMIT_RTPRIO`, and
//! in a container even root can get `EPERM` (a user namespace of its own, or a cgroup without a
//! real-time budget); where it is refused, the run says so instead of failing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::latency::{LatencyRecorder, LatencySummary};

/// The scheduling policy of the measured thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Linux's default time-sharing policy.
    Normal,
    /// `SCHED_FIFO` at this priority (1–99): runs before every normal thread on its core.
    Fifo(i32),
}

/// One configuration to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub policy: Policy,
    /// Pin the measured thread to this core.
    pub core: Option<usize>,
    /// Spinning normal threads started for the duration of the measurement.
    pub competitors: usize,
}

impl Setup {
    /// A label for tables and charts, e.g. `SCHED_FIFO 50, core 1, 2 spinners`.
    pub fn label(&self) -> String {
        let policy = match self.policy {
            Policy::Normal => "SCHED_OTHER".to_owned(),
            Policy::Fifo(p) => format!("SCHED_FIFO {p}"),
        };
        let core = self
            .core
            .map_or_else(String::new, |c| format!(", core {c}"));
        let load = match self.competitors {
            0 => "idle".to_owned(),
            n => format!("{n} spinners"),
        };
        format!("{policy}{core}, {load}")
    }
}

/// Why a setup could not be applied to the measured thread.
#[derive(Debug, thiserror::Error)]
pub enum PriorityError {
    #[error(
        "SCHED_FIFO priority {priority} was refused ({source}): real-time priority needs \
         CAP_SYS_NICE (run as root, or `setcap cap_sys_nice+ep` on the binary) or a raised \
         RLIMIT_RTPRIO (`ulimit -r`, /etc/security/limits.conf); inside a container even root \
         is refused when the container has its own user namespace or its cgroup has no \
         real-time budget (cpu.rt_runtime_us)"
    )]
    FifoRefused {
        priority: i32,
        #[source]
        source: std::io::Error,
    },
    #[error("SCHED_FIFO priority {priority} is not valid here ({source}); Linux accepts 1 to 99")]
    FifoInvalid {
        priority: i32,
        #[source]
        source: std::io::Error,
    },
    #[error("could not pin the thread to core {core} ({source}); the cores are 0 to {last}")]
    Pinning {
        core: usize,
        last: usize,
        #[source]
        source: std::io::Error,
    },
    #[error("setting a thread's policy or core from code is only implemented for Linux here")]
    Unsupported,
}

impl PriorityError {
    /// Is this the refusal that a missing privilege gives (as opposed to a bug)?
    pub fn is_refusal(&self) -> bool {
        matches!(self, Self::FifoRefused { .. })
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

// ANCHOR: set_fifo
/// Puts the calling thread in `SCHED_FIFO` at `priority`.
#[cfg(target_os = "linux")]
pub fn set_fifo(priority: i32) -> Result<(), PriorityError> {
    let param = libc::sched_param {
        sched_priority: priority,
    };
    // SAFETY: `param` is a valid sched_param that outlives the call; pid 0 is the calling
    // thread (on Linux the policy belongs to the thread, not to the process).
    let rc = unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) };
    if rc == 0 {
        return Ok(());
    }
    let source = std::io::Error::last_os_error();
    Err(match source.raw_os_error() {
        Some(libc::EPERM) => PriorityError::FifoRefused { priority, source },
        _ => PriorityError::FifoInvalid { priority, source },
    })
}
// ANCHOR_END: set_fifo

#[cfg(not(target_os = "linux"))]
pub fn set_fifo(_priority: i32) -> Result<(), PriorityError> {
    Err(PriorityError::Unsupported)
}

/// Pins the calling thread to `core`.
#[cfg(target_os = "linux")]
pub fn pin_to_core(core: usize) -> Result<(), PriorityError> {
    let last = cores().saturating_sub(1);
    // SAFETY: cpu_set_t is plain data, so all zeroes is a valid empty set; CPU_SET writes
    // inside it for any core below CPU_SETSIZE, which is checked first.
    let rc = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if core >= libc::CPU_SETSIZE as usize {
            -1
        } else {
            libc::CPU_SET(core, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set)
        }
    };
    if rc == 0 {
        return Ok(());
    }
    let source = if core >= libc::CPU_SETSIZE as usize {
        std::io::Error::from_raw_os_error(libc::EINVAL)
    } else {
        std::io::Error::last_os_error()
    };
    Err(PriorityError::Pinning { core, last, source })
}

#[cfg(not(target_os = "linux"))]
pub fn pin_to_core(_core: usize) -> Result<(), PriorityError> {
    Err(PriorityError::Unsupported)
}

// ANCHOR: measure
/// Starts `setup.competitors` spinning threads, then sleeps `sleeps` times for `period` on a
/// thread with `setup`'s policy and core, recording how late each wake-up is.
pub fn wakeup_lateness(
    setup: Setup,
    period: Duration,
    sleeps: u64,
) -> Result<LatencySummary, PriorityError> {
    let stop = Arc::new(AtomicBool::new(false));
    let spinners: Vec<_> = (0..setup.competitors)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        })
        .collect();
    let measured = std::thread::spawn(move || {
        if let Some(core) = setup.core {
            pin_to_core(core)?;
        }
        if let Policy::Fifo(priority) = setup.policy {
            set_fifo(priority)?;
        }
        let mut recorder = LatencyRecorder::new();
        for _ in 0..sleeps {
            let start = Instant::now();
            std::thread::sleep(period);
            recorder.record(start.elapsed().saturating_sub(period));
        }
        Ok(recorder.summary())
    })
    .join();
    stop.store(true, Ordering::Relaxed);
    for spinner in spinners {
        let _ = spinner.join(); // a spinner only loads a flag; it cannot panic
    }
    measured.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
// ANCHOR_END: measure

/// The comparison the figure shows: idle and normal for reference, then, with a spinning
/// thread on every core, normal and `SCHED_FIFO 50`, each free and pinned to the last core.
pub fn comparison() -> Vec<Setup> {
    let n = cores();
    let last = Some(n - 1);
    let setup = |policy, core, competitors| Setup {
        policy,
        core,
        competitors,
    };
    vec![
        setup(Policy::Normal, None, 0),
        setup(Policy::Normal, None, n),
        setup(Policy::Normal, last, n),
        setup(Policy::Fifo(50), None, n),
        setup(Policy::Fifo(50), last, n),
    ]
}

/// What one setup gave: a measurement, or the reason real-time priority was refused.
#[derive(Debug)]
pub enum Outcome {
    Measured(LatencySummary),
    /// `SCHED_FIFO` was refused for lack of privilege; the message says how to get it.
    Refused(String),
}

impl Outcome {
    /// The CSV's `status` column.
    pub fn status(&self) -> &'static str {
        match self {
            Self::Measured(_) => "measured",
            Self::Refused(_) => "refused",
        }
    }
}

/// [`wakeup_lateness`], with a refused `SCHED_FIFO` turned into a result to record: a machine
/// without the privilege still gets its other rows. Any other error is returned.
pub fn measure_or_refused(
    setup: Setup,
    period: Duration,
    sleeps: u64,
) -> Result<Outcome, PriorityError> {
    match wakeup_lateness(setup, period, sleeps) {
        Ok(summary) => Ok(Outcome::Measured(summary)),
        Err(e) if e.is_refusal() => Ok(Outcome::Refused(e.to_string())),
        Err(e) => Err(e),
    }
}
