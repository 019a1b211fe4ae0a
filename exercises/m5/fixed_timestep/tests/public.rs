//! Public tests: `cargo nextest run -p ex_m5_fixed_timestep`.

use std::time::Duration;

use ex_m5_fixed_timestep::{Body, FakeClock, FixedTimestep, TimestepError, interpolate};

const MS: Duration = Duration::from_millis(1);

#[test]
fn fixed_timestep_public_bad_settings_are_errors() {
    assert_eq!(
        FixedTimestep::new(Duration::ZERO, 5).unwrap_err(),
        TimestepError::ZeroStep
    );
    assert_eq!(
        FixedTimestep::new(MS, 0).unwrap_err(),
        TimestepError::NoStepsAllowed
    );
}

#[test]
fn fixed_timestep_public_two_steps_per_frame() {
    // 10 ms steps, 20 ms frames: after the first frame, two steps every frame.
    let mut clock = FakeClock::default();
    let mut loop_ = FixedTimestep::new(10 * MS, 5).unwrap();
    let mut steps = 0;
    assert_eq!(loop_.frame(clock.now(), |_| steps += 1).steps, 0);
    for _ in 0..3 {
        clock.advance(20 * MS);
        let report = loop_.frame(clock.now(), |dt| {
            assert_eq!(dt, 10 * MS);
            steps += 1;
        });
        assert_eq!(report.steps, 2);
        assert_eq!(report.alpha, 0.0);
    }
    assert_eq!(steps, 6);
}

#[test]
fn fixed_timestep_public_a_long_stall_is_capped() {
    let mut clock = FakeClock::default();
    let mut loop_ = FixedTimestep::new(10 * MS, 4).unwrap();
    loop_.frame(clock.now(), |_| {});
    clock.advance(Duration::from_secs(1));
    let report = loop_.frame(clock.now(), |_| {});
    assert_eq!(report.steps, 4);
    assert_eq!(report.dropped_steps, 96);
}

#[test]
fn fixed_timestep_public_interpolation_halfway() {
    let a = Body {
        position: 0.0,
        velocity: 2.0,
    };
    let b = Body {
        position: 1.0,
        velocity: 4.0,
    };
    assert_eq!(
        interpolate(a, b, 0.5),
        Body {
            position: 0.5,
            velocity: 3.0
        }
    );
}
