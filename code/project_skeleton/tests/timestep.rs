//! The fixed-timestep step against exact durations (no clock at all: the step only counts).

use std::time::Duration;

use project_skeleton::pipeline::timestep::{FixedTimestep, interpolate};

const DT: Duration = Duration::from_millis(10);

#[test]
fn frames_shorter_than_a_step_accumulate_and_alpha_says_how_far_between_states() {
    let mut t = FixedTimestep::new(DT, 5);
    let s = t.advance(Duration::from_millis(4));
    assert_eq!(s.steps, 0);
    assert!((s.alpha - 0.4).abs() < 1e-9);
    let s = t.advance(Duration::from_millis(8));
    assert_eq!(s.steps, 1);
    assert!((s.alpha - 0.2).abs() < 1e-9);
    assert_eq!(interpolate(10.0, 20.0, s.alpha), 12.0);
}

// ANCHOR: clamp_test
#[test]
fn a_long_frame_runs_at_most_max_steps_and_the_clamp_is_counted() {
    let mut t = FixedTimestep::new(DT, 5);
    // 125 ms behind: 12 steps are due, 5 run, 7 are thrown away, half a step is kept.
    let s = t.advance(Duration::from_millis(125));
    assert_eq!(s.steps, 5);
    assert!((s.alpha - 0.5).abs() < 1e-9);
    assert_eq!(t.clamped_frames(), 1);
    assert_eq!(t.discarded(), Duration::from_millis(70));
    // The next normal frame is normal again: no backlog carried into it.
    let s = t.advance(Duration::from_millis(10));
    assert_eq!(s.steps, 1);
    assert_eq!(t.clamped_frames(), 1);
}
// ANCHOR_END: clamp_test

#[test]
fn steady_frames_run_the_same_simulated_time_as_the_wall_clock() {
    let mut t = FixedTimestep::new(DT, 5);
    let total: u32 = (0..600)
        .map(|_| t.advance(Duration::from_micros(16_667)).steps)
        .sum();
    // 600 frames of 1/60 s = 10.0002 s = 1000 steps of 10 ms, with nothing clamped.
    assert_eq!(total, 1000);
    assert_eq!(t.clamped_frames(), 0);
}

#[test]
fn a_stall_of_more_than_2_to_the_32_steps_is_discarded_whole() {
    // 1 µs steps and a 72-minute stall: about 4.3e9 steps are due, more than a u32 counts.
    let dt = Duration::from_micros(1);
    let mut t = FixedTimestep::new(dt, 5);
    let stall = Duration::from_secs(72 * 60) + Duration::from_nanos(500);
    let s = t.advance(stall);
    assert_eq!(s.steps, 5);
    assert!((s.alpha - 0.5).abs() < 1e-9, "{}", s.alpha);
    assert_eq!(t.discarded(), stall - dt * 5 - Duration::from_nanos(500));
}
