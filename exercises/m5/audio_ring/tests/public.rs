//! Public tests: `cargo nextest run -p ex_m5_audio_ring`.

use ex_m5_audio_ring::{CallbackStats, RingError, audio_ring};

#[test]
fn audio_ring_public_capacity_must_be_a_power_of_two() {
    assert_eq!(
        audio_ring(100).err(),
        Some(RingError::CapacityNotPowerOfTwo { capacity: 100 })
    );
    assert!(audio_ring(128).is_ok());
}

#[test]
fn audio_ring_public_samples_come_out_in_order() {
    let (mut tx, mut rx) = audio_ring(8).unwrap();
    assert_eq!(tx.push_slice(&[1.0, 2.0, 3.0]), 3);
    let mut out = [9.0; 2];
    rx.fill(&mut out);
    assert_eq!(out, [1.0, 2.0]);
    assert_eq!(rx.available(), 1);
}

#[test]
fn audio_ring_public_an_underrun_plays_silence() {
    let (mut tx, mut rx) = audio_ring(8).unwrap();
    tx.push_slice(&[0.5]);
    let mut out = [9.0; 4];
    rx.fill(&mut out);
    assert_eq!(out, [0.5, 0.0, 0.0, 0.0]);
    assert_eq!(
        rx.stats(),
        CallbackStats {
            underruns: 1,
            missing_samples: 3
        }
    );
}
