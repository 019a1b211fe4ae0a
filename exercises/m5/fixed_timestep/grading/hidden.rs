//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use std::time::Duration;

use ex_m5_fixed_timestep::{Body, FakeClock, FixedTimestep, TimestepError, interpolate};

const MS: Duration = Duration::from_millis(1);

fn started(dt: Duration, cap: u32) -> (FakeClock, FixedTimestep) {
    let clock = FakeClock::default();
    let mut l = FixedTimestep::new(dt, cap).unwrap();
    let r = l.frame(clock.now(), |_| panic!("the first frame runs no step"));
    assert_eq!(r.steps, 0);
    (clock, l)
}

#[test]
fn fixed_timestep_hidden_rejects_bad_settings() {
    assert_eq!(
        FixedTimestep::new(Duration::ZERO, 1).unwrap_err(),
        TimestepError::ZeroStep
    );
    assert_eq!(
        FixedTimestep::new(Duration::ZERO, 0).unwrap_err(),
        TimestepError::ZeroStep,
        "the step is checked first"
    );
    assert_eq!(
        FixedTimestep::new(Duration::from_nanos(1), 0).unwrap_err(),
        TimestepError::NoStepsAllowed
    );
    let ok = FixedTimestep::new(Duration::from_nanos(1), 1).unwrap();
    assert_eq!(
        (ok.dt(), ok.max_steps_per_frame()),
        (Duration::from_nanos(1), 1)
    );
    grade_ok!("fixed_timestep_hidden_rejects_bad_settings");
}

#[test]
fn fixed_timestep_hidden_first_frame_only_starts_the_clock() {
    // The first frame comes late (the clock started long ago): it owes nothing.
    let mut l = FixedTimestep::new(10 * MS, 3).unwrap();
    let r = l.frame(Duration::from_secs(100), |_| {
        panic!("no step on the first frame")
    });
    assert_eq!(
        r,
        ex_m5_fixed_timestep::FrameReport {
            steps: 0,
            dropped_steps: 0,
            alpha: 0.0
        }
    );
    let mut n = 0;
    let r = l.frame(Duration::from_secs(100) + 25 * MS, |_| n += 1);
    assert_eq!((r.steps, n, r.dropped_steps), (2, 2, 0));
    assert!((r.alpha - 0.5).abs() < 1e-12, "{r:?}");
    grade_ok!("fixed_timestep_hidden_first_frame_only_starts_the_clock");
}

#[test]
fn fixed_timestep_hidden_steady_frames_step_exactly() {
    // 120 Hz simulation, 60 Hz frames, in whole nanoseconds so nothing is rounded.
    let dt = Duration::from_nanos(8_333_333);
    let (mut clock, mut l) = started(dt, 8);
    let mut total = 0u32;
    for _ in 0..600 {
        clock.advance(2 * dt);
        let r = l.frame(clock.now(), |d| {
            assert_eq!(d, dt);
            total += 1;
        });
        assert_eq!((r.steps, r.dropped_steps, r.alpha), (2, 0, 0.0));
    }
    assert_eq!(total, 1200);
    grade_ok!("fixed_timestep_hidden_steady_frames_step_exactly");
}

#[test]
fn fixed_timestep_hidden_irregular_frames_keep_the_remainder() {
    let (mut clock, mut l) = started(10 * MS, 10);
    let mut total = 0u64;
    let gaps = [3, 4, 5, 17, 1, 0, 29, 11, 8, 2];
    for g in gaps {
        clock.advance(g * MS);
        total += u64::from(l.frame(clock.now(), |_| {}).steps);
    }
    // 80 ms in all: exactly 8 steps, none lost to rounding, none dropped.
    assert_eq!(total, 8);
    clock.advance(5 * MS);
    let r = l.frame(clock.now(), |_| {});
    assert_eq!(r.steps, 0);
    assert!(
        (r.alpha - 0.5).abs() < 1e-12,
        "85 ms: half a step owed, {r:?}"
    );
    grade_ok!("fixed_timestep_hidden_irregular_frames_keep_the_remainder");
}

#[test]
fn fixed_timestep_hidden_a_hitch_is_capped_and_dropped() {
    let (mut clock, mut l) = started(10 * MS, 5);
    clock.advance(Duration::from_millis(1234));
    let mut n = 0;
    let r = l.frame(clock.now(), |_| n += 1);
    assert_eq!((r.steps, n), (5, 5));
    assert_eq!(r.dropped_steps, 118, "123 whole steps owed, 5 run");
    assert!(
        (r.alpha - 0.4).abs() < 1e-9,
        "the 4 ms fraction is kept: {r:?}"
    );
    // The next normal frame is normal again: no debt carried over.
    clock.advance(16 * MS);
    let r = l.frame(clock.now(), |_| {});
    assert_eq!((r.steps, r.dropped_steps), (2, 0));
    assert!(r.alpha < 1.0);
    grade_ok!("fixed_timestep_hidden_a_hitch_is_capped_and_dropped");
}

#[test]
fn fixed_timestep_hidden_a_clock_going_backwards_owes_nothing() {
    let (mut clock, mut l) = started(10 * MS, 5);
    clock.advance(35 * MS);
    assert_eq!(l.frame(clock.now(), |_| {}).steps, 3);
    clock.set(20 * MS);
    let r = l.frame(clock.now(), |_| panic!("time went backwards: no step"));
    assert_eq!((r.steps, r.dropped_steps), (0, 0));
    assert!(
        (r.alpha - 0.5).abs() < 1e-12,
        "the 5 ms owed before are still owed: {r:?}"
    );
    clock.set(25 * MS);
    assert_eq!(
        l.frame(clock.now(), |_| {}).steps,
        1,
        "counted from the last frame's time"
    );
    grade_ok!("fixed_timestep_hidden_a_clock_going_backwards_owes_nothing");
}

#[test]
fn fixed_timestep_hidden_alpha_stays_in_range() {
    let dt = Duration::from_nanos(6_944_444);
    let (mut clock, mut l) = started(dt, 3);
    let mut x = 12345u64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        clock.advance(Duration::from_nanos(x % 40_000_000));
        let r = l.frame(clock.now(), |_| {});
        assert!((0.0..1.0).contains(&r.alpha), "{r:?}");
        assert!(r.steps <= 3);
    }
    grade_ok!("fixed_timestep_hidden_alpha_stays_in_range");
}

#[test]
fn fixed_timestep_hidden_interpolation_blends_states() {
    let a = Body {
        position: 1.0,
        velocity: -1.0,
    };
    let b = Body {
        position: 3.0,
        velocity: 5.0,
    };
    assert_eq!(interpolate(a, b, 0.0), a);
    assert_eq!(
        interpolate(a, b, 0.25),
        Body {
            position: 1.5,
            velocity: 0.5
        }
    );
    let near = interpolate(a, b, 0.999);
    assert!((near.position - 2.998).abs() < 1e-12 && (near.velocity - 4.994).abs() < 1e-12);
    grade_ok!("fixed_timestep_hidden_interpolation_blends_states");
}

/// Simulates 2 s of falling at the given frame period and returns the final body.
fn fall(frame: Duration) -> (Body, u32) {
    let dt = Duration::from_millis(5);
    let (mut clock, mut l) = started(dt, 100);
    let mut body = Body {
        position: 100.0,
        velocity: 0.0,
    };
    let mut steps = 0;
    while clock.now() < Duration::from_secs(2) {
        clock.advance(frame);
        steps += l.frame(clock.now(), |d| body.step(d)).steps;
    }
    (body, steps)
}

#[test]
fn fixed_timestep_hidden_simulation_is_independent_of_frame_rate() {
    // Same steps, same order, same floating-point result, whatever the frame rate.
    let (at_100hz, s1) = fall(Duration::from_millis(10));
    let (at_25hz, s2) = fall(Duration::from_millis(40));
    let (at_200hz, s3) = fall(Duration::from_millis(5));
    assert_eq!((s1, s2, s3), (400, 400, 400));
    assert_eq!(at_100hz, at_25hz);
    assert_eq!(at_100hz, at_200hz);
    grade_ok!("fixed_timestep_hidden_simulation_is_independent_of_frame_rate");
}
