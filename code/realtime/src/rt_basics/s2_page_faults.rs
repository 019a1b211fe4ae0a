//! Stage 2: page faults in the hot loop, and two ways to take them out.
//!
//! Fresh memory from the OS is only *reserved*: the kernel maps a page the first time it is
//! touched (a minor page fault: a trap, a zeroed page, a page-table update), so a loop that
//! fills a fresh buffer pays for the memory inside the loop. Touching every page before the loop
//! (pre-faulting) moves that cost out; `mlockall(MCL_CURRENT | MCL_FUTURE)` does it for every
//! mapping the process has and will have, and also keeps the pages from being swapped out.

use std::time::{Duration, Instant};

use super::RtError;
use crate::latency::{LatencyRecorder, LatencySummary};

/// A page on x86-64 and most Arm systems; touching one byte per page faults every page in.
pub const PAGE: usize = 4096;

/// How the loop's buffer was prepared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Allocated just before the loop and never touched.
    Fresh,
    /// Allocated, then one byte written in every page before the loop.
    Prefaulted,
    /// Allocated after `mlockall(MCL_CURRENT | MCL_FUTURE)` (Linux): the kernel maps it at once.
    Locked,
}

impl Memory {
    pub fn label(self) -> &'static str {
        match self {
            Self::Fresh => "fresh buffer",
            Self::Prefaulted => "pre-faulted buffer",
            Self::Locked => "mlockall(MCL_CURRENT | MCL_FUTURE)",
        }
    }
}

/// What one loop over a buffer measured.
#[derive(Clone, Copy, Debug)]
pub struct FaultRun {
    /// Time to fill one chunk, per iteration.
    pub per_chunk: LatencySummary,
    /// Minor page faults this thread took during the loop (Linux; `None` elsewhere).
    pub minor_faults: Option<u64>,
    /// Time spent preparing the buffer before the loop (allocation, pre-faulting, locking).
    pub setup: Duration,
}

/// Minor faults of the calling thread so far.
#[cfg(target_os = "linux")]
pub fn minor_faults() -> Option<u64> {
    // SAFETY: rusage is plain data and getrusage fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: usage is a valid rusage that outlives the call.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
    (rc == 0).then(|| u64::try_from(usage.ru_minflt).unwrap_or(0))
}

#[cfg(not(target_os = "linux"))]
pub fn minor_faults() -> Option<u64> {
    None
}

// ANCHOR: prefault
/// Writes one byte in every page, so that the kernel maps them all now. A volatile write:
/// the compiler may not drop it (it knows that `vec![0; n]` memory already reads as zero).
pub fn prefault(buffer: &mut [u8]) {
    for i in (0..buffer.len()).step_by(PAGE) {
        // SAFETY: i < buffer.len(), so the pointer is in bounds and valid for writes.
        unsafe { std::ptr::write_volatile(buffer.as_mut_ptr().add(i), 0) };
    }
}
// ANCHOR_END: prefault

// ANCHOR: lock_all
/// Locks every current and future mapping of the process into RAM: no page of it will fault
/// or be swapped out until [`unlock_all`]. Needs CAP_IPC_LOCK or a large RLIMIT_MEMLOCK.
#[cfg(target_os = "linux")]
pub fn lock_all() -> Result<(), RtError> {
    // SAFETY: mlockall takes flags only.
    if unsafe { libc::mlockall(libc::MCL_CURRENT | libc::MCL_FUTURE) } == 0 {
        return Ok(());
    }
    let source = std::io::Error::last_os_error();
    Err(match source.raw_os_error() {
        Some(libc::EPERM | libc::ENOMEM) => RtError::LockRefused { source },
        _ => RtError::Os {
            what: "mlockall",
            source,
        },
    })
}
// ANCHOR_END: lock_all

#[cfg(not(target_os = "linux"))]
pub fn lock_all() -> Result<(), RtError> {
    Err(RtError::Unsupported {
        what: "mlockall(MCL_CURRENT | MCL_FUTURE)",
    })
}

/// Undoes [`lock_all`].
#[cfg(target_os = "linux")]
pub fn unlock_all() -> Result<(), RtError> {
    // SAFETY: munlockall takes no arguments.
    if unsafe { libc::munlockall() } == 0 {
        Ok(())
    } else {
        Err(super::os_error("munlockall"))
    }
}

#[cfg(not(target_os = "linux"))]
pub fn unlock_all() -> Result<(), RtError> {
    Ok(())
}

// ANCHOR: fill_loop
/// Prepares a buffer of `buffer_bytes` as `memory` says, then fills it `chunk_bytes` at a time
/// (a frame arriving), timing each chunk and counting the page faults of the whole loop.
pub fn fill_loop(
    memory: Memory,
    buffer_bytes: usize,
    chunk_bytes: usize,
) -> Result<FaultRun, RtError> {
    let chunk_bytes = chunk_bytes.clamp(1, buffer_bytes.max(1));
    let prepared = Instant::now();
    if memory == Memory::Locked {
        lock_all()?;
    }
    let mut buffer = vec![0u8; buffer_bytes];
    if memory == Memory::Prefaulted {
        prefault(&mut buffer);
    }
    let setup = prepared.elapsed();

    let mut recorder = LatencyRecorder::new();
    let faults_before = minor_faults();
    for (i, chunk) in buffer.chunks_mut(chunk_bytes).enumerate() {
        let start = Instant::now();
        chunk.fill(i as u8);
        std::hint::black_box(&chunk);
        recorder.record(start.elapsed());
    }
    let faults = minor_faults().zip(faults_before).map(|(a, b)| a - b);
    drop(buffer);
    if memory == Memory::Locked {
        unlock_all()?;
    }
    Ok(FaultRun {
        per_chunk: recorder.summary(),
        minor_faults: faults,
        setup,
    })
}
// ANCHOR_END: fill_loop

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefault_writes_zeros_and_leaves_the_length() {
        let mut b = vec![7u8; 3 * PAGE + 5];
        prefault(&mut b);
        assert_eq!(b.len(), 3 * PAGE + 5);
        assert_eq!(b.iter().filter(|&&x| x == 0).count(), 4);
    }

    #[test]
    fn every_chunk_is_timed() {
        let run = fill_loop(Memory::Prefaulted, 10 * PAGE, 4 * PAGE).unwrap();
        assert_eq!(run.per_chunk.iterations, 3);
    }
}
