//! The real-time basics show what they claim where the machine allows it, and say clearly why
//! where it does not.
//!
//! The tests of this file share one process under `cargo test`, and two of them change
//! process-wide state or are disturbed by it: `mlockall(MCL_FUTURE)` makes every later thread
//! stack and allocation mapped and locked at once, which slows the thread start-ups that the
//! inversion scene times, and a freed large buffer moves glibc's mmap threshold. So every test
//! here holds [`ONE_AT_A_TIME`] while it runs.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use realtime::rt_basics::RtError;
use realtime::rt_basics::s1_priority_inversion::{Protocol, Scene, high_waits};
use realtime::rt_basics::s2_page_faults::{Memory, PAGE, fill_loop};
use realtime::rt_basics::s3_deadlines::{Pacing, paced_loop};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Serialises the tests of this file; a test that failed while holding the lock does not
/// poison the others.
fn alone() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn priority_inheritance_ends_the_wait_for_the_medium_thread() {
    let _alone = alone();
    let ms = Duration::from_millis;
    let scene = |protocol| Scene {
        protocol,
        hold: ms(1),
        hog: ms(10),
    };
    match high_waits(scene(Protocol::None), 3) {
        Ok(plain) => {
            let inherit = high_waits(scene(Protocol::Inherit), 3).unwrap();
            // Without inheritance high waits for medium's whole spin; with it, about the
            // holder's remaining millisecond of work.
            assert!(plain.p50_ns >= 9_000_000, "{plain:?}");
            assert!(
                inherit.p50_ns < plain.p50_ns / 2,
                "{inherit:?} vs {plain:?}"
            );
        }
        Err(e @ RtError::RealTimeRefused { .. }) => {
            assert!(e.to_string().contains("CAP_SYS_NICE"), "{e}");
        }
        Err(e @ (RtError::TooFewCpus { .. } | RtError::Unsupported { .. })) => {
            assert!(!e.to_string().is_empty());
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_fresh_buffer_faults_in_the_loop_and_a_prefaulted_one_does_not() {
    let _alone = alone();
    // Above glibc's largest mmap threshold (32 MiB on 64-bit), so the fresh buffer always
    // comes straight from mmap, never from heap pages that an earlier free left mapped.
    let bytes = 48 << 20;
    let fresh = fill_loop(Memory::Fresh, bytes, 16 * PAGE).unwrap();
    let pre = fill_loop(Memory::Prefaulted, bytes, 16 * PAGE).unwrap();
    assert_eq!(fresh.per_chunk.iterations, 768);
    if let (Some(f), Some(p)) = (fresh.minor_faults, pre.minor_faults) {
        // With 4 KiB pages a fresh buffer faults once per page; with transparent huge pages
        // once per 2 MiB. Either way the pre-faulted loop faults less.
        assert!(f > p, "fresh {f} vs pre-faulted {p}");
        assert!(p <= f / 4, "fresh {f} vs pre-faulted {p}");
    }
}

#[test]
fn mlockall_takes_the_faults_out_of_the_loop_or_says_why_it_cannot() {
    let _alone = alone();
    match fill_loop(Memory::Locked, 8 << 20, 16 * PAGE) {
        Ok(run) => {
            if let Some(f) = run.minor_faults {
                assert!(f < 64, "{f} faults in a locked loop");
            }
        }
        Err(e @ (RtError::LockRefused { .. } | RtError::Unsupported { .. })) => {
            assert!(e.to_string().contains("mlockall"), "{e}");
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn sleeping_a_period_drifts_and_sleeping_to_deadlines_does_not() {
    let _alone = alone();
    let period = Duration::from_millis(1);
    let relative = paced_loop(Pacing::RelativeSleep, period, 100).unwrap();
    // Every wake-up starts the next period, so lateness can only grow.
    assert!(relative.trace.windows(2).all(|w| w[0] <= w[1]));
    let deadline = paced_loop(Pacing::SleepToDeadline, period, 100).unwrap();
    assert!(
        relative.lateness.p50_ns > 5 * deadline.lateness.p50_ns,
        "{relative:?} vs {deadline:?}"
    );
    match paced_loop(Pacing::AbsoluteDeadline, period, 100) {
        Ok(absolute) => assert!(
            relative.lateness.p50_ns > 5 * absolute.lateness.p50_ns,
            "{:?} vs {:?}",
            relative.lateness,
            absolute.lateness
        ),
        Err(e) if cfg!(target_os = "linux") => panic!("{e}"),
        Err(e) => assert!(e.to_string().contains("TIMER_ABSTIME"), "{e}"),
    }
}
