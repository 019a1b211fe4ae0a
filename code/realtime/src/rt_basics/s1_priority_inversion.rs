//! Stage 1: priority inversion, and priority inheritance as its cure.
//!
//! Three `SCHED_FIFO` threads share one core. *Low* (priority 10) takes a lock and works while
//! holding it. *High* (30) then wants the lock and blocks. *Medium* (20) wakes up and spins,
//! and needs no lock at all. With a plain mutex, medium outranks low, so low cannot finish and
//! release the lock: high, the most urgent thread, waits for medium's whole spin. A mutex with
//! the `PTHREAD_PRIO_INHERIT` protocol lends high's priority to low while high waits, so low
//! finishes its work ahead of medium and high waits only for that.
//!
//! The real-time policy needs privilege (see [`super::RtError::RealTimeRefused`]); the
//! orchestration runs on a second core, so the demonstration needs two.

use std::time::Duration;

use super::RtError;
use crate::latency::{LatencyRecorder, LatencySummary};

/// What the mutex does when a higher-priority thread waits on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `PTHREAD_PRIO_NONE`: the holder keeps its own priority (what `std::sync::Mutex` does).
    None,
    /// `PTHREAD_PRIO_INHERIT`: the holder runs at the priority of its highest waiter.
    Inherit,
}

impl Protocol {
    pub fn label(self) -> &'static str {
        match self {
            Self::None => "plain mutex (PTHREAD_PRIO_NONE)",
            Self::Inherit => "priority inheritance (PTHREAD_PRIO_INHERIT)",
        }
    }
}

/// One scene of the demonstration.
#[derive(Clone, Copy, Debug)]
pub struct Scene {
    pub protocol: Protocol,
    /// CPU time that low spends working while it holds the lock.
    pub hold: Duration,
    /// How long medium spins once it wakes up.
    pub hog: Duration,
}

/// How long high waited for the lock in each of `trials` runs of `scene`. A scene in which low
/// had already finished its work when high asked for the lock shows no inversion at all (the
/// threads started too slowly), so it is played again, up to `trials` extra times in all.
pub fn high_waits(scene: Scene, trials: u64) -> Result<LatencySummary, RtError> {
    let mut recorder = LatencyRecorder::new();
    let mut replays_left = trials;
    while recorder.summary().iterations < trials {
        match run_scene(scene)? {
            Some(waited) => recorder.record(waited),
            None if replays_left > 0 => replays_left -= 1,
            None => {
                return Err(RtError::Os {
                    what: "the priority-inversion scene",
                    source: std::io::Error::other(format!(
                        "in {trials} extra scenes the low-priority thread finished before the                          high-priority one asked for the lock; run it on a less busy machine"
                    )),
                });
            }
        }
        // Leave the core to normal threads between scenes (and far from the kernel's
        // reserve for them).
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(recorder.summary())
}

#[cfg(not(target_os = "linux"))]
pub fn run_scene(_scene: Scene) -> Result<Option<Duration>, RtError> {
    Err(RtError::Unsupported {
        what: "priority inversion with SCHED_FIFO threads and a PTHREAD_PRIO_INHERIT mutex",
    })
}

#[cfg(target_os = "linux")]
pub use linux::{PthreadMutex, run_scene};

#[cfg(target_os = "linux")]
mod linux {
    use std::cell::UnsafeCell;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread::JoinHandle;
    use std::time::{Duration, Instant};

    use super::{Protocol, RtError, Scene};
    use crate::rt_basics::os_error;
    use crate::rules::priority::{PriorityError, pin_to_core, set_fifo};

    /// A pthread mutex with a chosen protocol. `std::sync::Mutex` has no way to ask for
    /// priority inheritance, so this goes through `libc`.
    pub struct PthreadMutex {
        // Boxed: a pthread mutex must not move once it is initialised.
        raw: Box<UnsafeCell<libc::pthread_mutex_t>>,
    }

    // SAFETY: a pthread mutex is made to be shared between threads; all access goes through
    // pthread_mutex_lock/unlock.
    unsafe impl Send for PthreadMutex {}
    unsafe impl Sync for PthreadMutex {}

    impl PthreadMutex {
        // ANCHOR: pi_mutex
        pub fn new(protocol: Protocol) -> Result<Self, RtError> {
            let protocol = match protocol {
                Protocol::None => libc::PTHREAD_PRIO_NONE,
                Protocol::Inherit => libc::PTHREAD_PRIO_INHERIT,
            };
            let raw = Box::new(UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER));
            // SAFETY: attr is initialised before use and destroyed after; raw points to a
            // boxed mutex that no other thread can see yet.
            let rc = unsafe {
                let mut attr = std::mem::MaybeUninit::<libc::pthread_mutexattr_t>::uninit();
                let mut rc = libc::pthread_mutexattr_init(attr.as_mut_ptr());
                if rc == 0 {
                    rc = libc::pthread_mutexattr_setprotocol(attr.as_mut_ptr(), protocol);
                    if rc == 0 {
                        rc = libc::pthread_mutex_init(raw.get(), attr.as_ptr());
                    }
                    libc::pthread_mutexattr_destroy(attr.as_mut_ptr());
                }
                rc
            };
            if rc != 0 {
                return Err(RtError::Os {
                    what: "creating a pthread mutex",
                    source: std::io::Error::from_raw_os_error(rc),
                });
            }
            Ok(Self { raw })
        }
        // ANCHOR_END: pi_mutex

        /// Blocks until the lock is ours; the guard unlocks.
        pub fn lock(&self) -> Guard<'_> {
            // SAFETY: the mutex was initialised in `new`. A default (non-error-checking)
            // mutex reports no error that a correct lock/unlock pairing can cause.
            unsafe { libc::pthread_mutex_lock(self.raw.get()) };
            Guard(self)
        }
    }

    /// Holds a [`PthreadMutex`] until dropped.
    pub struct Guard<'a>(&'a PthreadMutex);

    impl Drop for Guard<'_> {
        fn drop(&mut self) {
            // SAFETY: this thread locked the mutex when it made the guard.
            unsafe { libc::pthread_mutex_unlock(self.0.raw.get()) };
        }
    }

    impl Drop for PthreadMutex {
        fn drop(&mut self) {
            // SAFETY: no guard can outlive the mutex it borrows, so it is unlocked.
            unsafe { libc::pthread_mutex_destroy(self.raw.get()) };
        }
    }

    /// CPU time this thread has used: work that a preempted thread has not done yet.
    fn thread_cpu_time() -> Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: ts is a valid timespec; this clock exists on every Linux.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    }

    fn spin_for_cpu_time(work: Duration) {
        let start = thread_cpu_time();
        while thread_cpu_time() - start < work {
            std::hint::spin_loop();
        }
    }

    fn spin_until(deadline: Instant) {
        while Instant::now() < deadline {
            std::hint::spin_loop();
        }
    }

    /// Becomes a `SCHED_FIFO` thread at `priority` on `core`. The policy comes first: a normal
    /// thread moved onto a core where a real-time thread spins would not run again until it
    /// stopped.
    fn become_real_time(priority: i32, core: usize) -> Result<(), RtError> {
        set_fifo(priority).map_err(|e| match e {
            PriorityError::FifoRefused { source, .. } => RtError::RealTimeRefused {
                what: "SCHED_FIFO",
                source,
            },
            other => RtError::Os {
                what: "setting SCHED_FIFO",
                source: std::io::Error::other(other.to_string()),
            },
        })?;
        pin_to_core(core).map_err(|e| RtError::Os {
            what: "pinning a thread",
            source: std::io::Error::other(e.to_string()),
        })
    }

    /// Waits for `flag`, or for `thread` to end early (it failed), for at most two seconds.
    fn wait_for<T>(flag: &AtomicBool, thread: &JoinHandle<T>) -> bool {
        let give_up = Instant::now() + Duration::from_secs(2);
        while !flag.load(Ordering::Acquire) {
            if thread.is_finished() || Instant::now() > give_up {
                return false;
            }
            std::thread::yield_now();
        }
        true
    }

    fn joined<T>(thread: JoinHandle<Result<T, RtError>>) -> Result<T, RtError> {
        thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    const LOW: i32 = 10;
    const MEDIUM: i32 = 20;
    const HIGH: i32 = 30;

    /// Plays the scene once on the last core and returns how long high waited for the lock, or
    /// `None` where low had finished its work before high asked (no inversion could happen).
    pub fn run_scene(scene: Scene) -> Result<Option<Duration>, RtError> {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cpus < 2 {
            return Err(RtError::TooFewCpus {
                what: "the priority-inversion scene",
                needed: 2,
                have: cpus,
            });
        }
        let core = cpus - 1;
        // The director runs elsewhere (core 0), so a spinning real-time thread cannot stop it.
        let director = std::thread::spawn(move || -> Result<Option<Duration>, RtError> {
            pin_to_core(0).map_err(|e| RtError::Os {
                what: "pinning the director",
                source: std::io::Error::other(e.to_string()),
            })?;
            let lock = Arc::new(PthreadMutex::new(scene.protocol)?);
            let (held, waiting, done) = (
                Arc::new(AtomicBool::new(false)),
                Arc::new(AtomicBool::new(false)),
                Arc::new(AtomicBool::new(false)),
            );

            // ANCHOR: scene
            let (l, h, d) = (Arc::clone(&lock), Arc::clone(&held), Arc::clone(&done));
            let low = std::thread::spawn(move || {
                become_real_time(LOW, core)?;
                let _guard = l.lock();
                h.store(true, Ordering::Release);
                spin_for_cpu_time(scene.hold); // work done while holding the lock
                d.store(true, Ordering::Release); // still holding it
                Ok(())
            });
            if !wait_for(&held, &low) {
                joined(low)?;
                return Err(os_error("starting the low-priority thread"));
            }

            let (l, w, d) = (Arc::clone(&lock), Arc::clone(&waiting), Arc::clone(&done));
            let high = std::thread::spawn(move || {
                become_real_time(HIGH, core)?;
                let asked = Instant::now();
                let too_late = d.load(Ordering::Acquire); // low already done: no inversion
                w.store(true, Ordering::Release);
                let _guard = l.lock();
                Ok((!too_late).then(|| asked.elapsed()))
            });
            if !wait_for(&waiting, &high) {
                joined(high)?;
                return Err(os_error("starting the high-priority thread"));
            }

            let medium = std::thread::spawn(move || {
                become_real_time(MEDIUM, core)?;
                spin_until(Instant::now() + scene.hog); // needs no lock, only the core
                Ok(())
            });
            // ANCHOR_END: scene
            let waited = joined(high);
            let (m, l) = (joined(medium), joined(low));
            m.and(l).and(waited)
        });
        joined(director)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_pthread_protocols() {
        assert!(Protocol::Inherit.label().contains("PTHREAD_PRIO_INHERIT"));
        assert!(Protocol::None.label().contains("PTHREAD_PRIO_NONE"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pthread_mutex_of_either_protocol_excludes() {
        use std::sync::Arc;
        for protocol in [Protocol::None, Protocol::Inherit] {
            let lock = Arc::new(PthreadMutex::new(protocol).unwrap());
            let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    let (lock, counter) = (Arc::clone(&lock), Arc::clone(&counter));
                    std::thread::spawn(move || {
                        for _ in 0..2000 {
                            let _g = lock.lock();
                            // A non-atomic read-modify-write under the lock: lost updates
                            // would show if two threads were inside at once.
                            let v = counter.load(std::sync::atomic::Ordering::Relaxed);
                            counter.store(v + 1, std::sync::atomic::Ordering::Relaxed);
                        }
                    })
                })
                .collect();
            for t in threads {
                t.join().unwrap();
            }
            assert_eq!(counter.load(std::sync::atomic::Ordering::Relaxed), 8000);
        }
    }
}
