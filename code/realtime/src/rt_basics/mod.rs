//! Real-time basics beyond the hot loop, one small stage each, Linux first (each function says
//! what it does elsewhere):
//!
//! - [`s1_priority_inversion`]: a low-priority thread holds a lock, a medium-priority one hogs
//!   the core, a high-priority one waits for the lock: without priority inheritance it waits for
//!   the hog; with a `PTHREAD_PRIO_INHERIT` mutex it waits only for the holder;
//! - [`s2_page_faults`]: the first touch of fresh memory page-faults inside the loop; touching it
//!   before the loop, or `mlockall(MCL_CURRENT | MCL_FUTURE)`, moves the faults out;
//! - [`s3_deadlines`]: a periodic loop that sleeps a fixed period drifts by every wake-up's
//!   lateness; one that sleeps to absolute deadlines (`clock_nanosleep` with `TIMER_ABSTIME`)
//!   does not.

pub mod s1_priority_inversion;
pub mod s2_page_faults;
pub mod s3_deadlines;

/// Why a real-time basic could not be shown on this machine.
#[derive(Debug, thiserror::Error)]
pub enum RtError {
    #[error("{what} is shown here with Linux system calls; on this OS it is not implemented")]
    Unsupported { what: &'static str },
    #[error(
        "{what} was refused ({source}): it needs CAP_SYS_NICE (root) or a raised RLIMIT_RTPRIO \
         (`ulimit -r`), and inside a container the container may have no real-time budget"
    )]
    RealTimeRefused {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "mlockall was refused ({source}): it needs CAP_IPC_LOCK (root) or a RLIMIT_MEMLOCK \
         (`ulimit -l`) larger than the process's memory"
    )]
    LockRefused {
        #[source]
        source: std::io::Error,
    },
    #[error("{what} failed: {source}")]
    Os {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("{what} needs at least {needed} logical CPUs; this machine has {have}")]
    TooFewCpus {
        what: &'static str,
        needed: usize,
        have: usize,
    },
}

impl RtError {
    /// A refusal for lack of privilege, which a figure records as a `refused` row.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Self::RealTimeRefused { .. } | Self::LockRefused { .. }
        )
    }
}

/// The last OS error as an [`RtError::Os`].
#[cfg(target_os = "linux")]
fn os_error(what: &'static str) -> RtError {
    RtError::Os {
        what,
        source: std::io::Error::last_os_error(),
    }
}
