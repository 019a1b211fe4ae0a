//! The priority comparison measures what it can, and a refused SCHED_FIFO is a recorded result
//! with a message that says how to get the privilege, not a failure.
#![cfg(target_os = "linux")]

use std::time::Duration;

use realtime::rules::priority::{self, Outcome, Policy, PriorityError, Setup};

const PERIOD: Duration = Duration::from_millis(1);

#[test]
fn a_normal_thread_under_load_is_measured_on_every_sleep() {
    let setup = Setup {
        policy: Policy::Normal,
        core: Some(0),
        competitors: 1,
    };
    let s = priority::wakeup_lateness(setup, PERIOD, 5).unwrap();
    assert_eq!(s.iterations, 5);
    assert!(s.p50_ns <= s.p99_ns && s.p99_ns <= s.max_ns);
    assert_eq!(setup.label(), "SCHED_OTHER, core 0, 1 spinners");
}

#[test]
fn fifo_is_measured_where_allowed_and_refused_clearly_where_not() {
    let setup = Setup {
        policy: Policy::Fifo(50),
        core: None,
        competitors: 1,
    };
    match priority::measure_or_refused(setup, PERIOD, 5).unwrap() {
        Outcome::Measured(s) => assert_eq!(s.iterations, 5),
        Outcome::Refused(why) => assert!(why.contains("CAP_SYS_NICE"), "{why}"),
    }
}

/// Capability sets belong to a thread, and a thread it starts inherits them: dropping
/// CAP_SYS_NICE here takes the privilege away from the measured thread even when the tests run
/// as root.
fn drop_cap_sys_nice_from_this_thread() {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    const CAP_SYS_NICE: u32 = 23;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let mut data = [Data::default(); 2];
    // SAFETY: header and data have the kernel's layout for capability version 3 (two data
    // structs), and both outlive the calls.
    unsafe {
        assert_eq!(
            libc::syscall(libc::SYS_capget, &mut header, data.as_mut_ptr()),
            0
        );
        data[0].effective &= !(1 << CAP_SYS_NICE);
        data[0].permitted &= !(1 << CAP_SYS_NICE);
        assert_eq!(
            libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()),
            0
        );
        // Without the capability, RLIMIT_RTPRIO decides; a soft limit of 0 allows no priority.
        let mut limit = std::mem::zeroed::<libc::rlimit>();
        assert_eq!(libc::getrlimit(libc::RLIMIT_RTPRIO, &mut limit), 0);
        limit.rlim_cur = 0;
        assert_eq!(libc::setrlimit(libc::RLIMIT_RTPRIO, &limit), 0);
    }
}

#[test]
fn without_the_privilege_fifo_is_a_refused_row_that_says_how_to_get_it() {
    std::thread::spawn(|| {
        drop_cap_sys_nice_from_this_thread();
        let err = priority::set_fifo(50).unwrap_err();
        assert!(matches!(err, PriorityError::FifoRefused { .. }), "{err:?}");

        let setup = Setup {
            policy: Policy::Fifo(50),
            core: None,
            competitors: 1,
        };
        let outcome = priority::measure_or_refused(setup, PERIOD, 5).unwrap();
        assert_eq!(outcome.status(), "refused");
        let Outcome::Refused(why) = outcome else {
            unreachable!()
        };
        for hint in [
            "SCHED_FIFO priority 50 was refused",
            "CAP_SYS_NICE",
            "RLIMIT_RTPRIO",
        ] {
            assert!(why.contains(hint), "`{hint}` missing from: {why}");
        }
    })
    .join()
    .unwrap();
}

#[test]
fn bad_settings_are_errors_that_say_what_is_allowed() {
    let err = priority::set_fifo(500).unwrap_err();
    assert!(err.to_string().contains("1 to 99"), "{err}");
    let err = priority::pin_to_core(100_000).unwrap_err();
    assert!(err.to_string().contains("the cores are 0 to"), "{err}");
}

#[test]
fn the_comparison_has_both_policies_pinned_and_free_under_load() {
    let setups = priority::comparison();
    let loaded: Vec<_> = setups.iter().filter(|s| s.competitors > 0).collect();
    assert_eq!(loaded.len(), 4);
    for policy in [Policy::Normal, Policy::Fifo(50)] {
        assert!(
            loaded
                .iter()
                .any(|s| s.policy == policy && s.core.is_some())
        );
        assert!(
            loaded
                .iter()
                .any(|s| s.policy == policy && s.core.is_none())
        );
    }
}
