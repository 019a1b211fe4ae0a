//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! `grade_record!` prints what the student's code returned (std tests only: a loom model runs
//! once per interleaving); the grader compares it with the reference solution's, outside this
//! process.
//!
//! Loom models (the `loom_slot` build of the same code) check the races on every interleaving;
//! the std tests check the same promises with real threads and the error path. No test measures
//! time: only what readers see.

use ex_m3_weights_hot_swap::{PublishError, WeightSlot, Weights, loom_slot, std_slot};

/// Every model here takes well under a second with this bound in a debug build.
fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

/// A snapshot is whole when every weight equals its version (how the tests publish).
fn assert_whole(version: u64, weights: &Weights, when: &str) {
    assert_eq!(
        weights.uniform_value(),
        Some(version as f32),
        "{when}: current() returned version {version} with weights {weights:?}: a torn model"
    );
}

fn assert_loom_whole(got: &loom_slot::Snapshot, when: &str) {
    assert_whole(got.version, &got.weights, when);
}

fn assert_std_whole(got: &std_slot::Snapshot, when: &str) {
    assert_whole(got.version, &got.weights, when);
}

#[test]
fn weights_hot_swap_hidden_reader_sees_one_whole_version() {
    model(|| {
        let slot = loom::sync::Arc::new(loom_slot::WeightSlot::new(Weights::filled(0.0)));
        let trainer = {
            let slot = loom::sync::Arc::clone(&slot);
            loom::thread::spawn(move || slot.publish(1, Weights::filled(1.0)))
        };
        let got = slot.current();
        assert!(
            got.version <= 1,
            "version {} after one publish",
            got.version
        );
        assert_loom_whole(&got, "during the publish of version 1");
        assert_eq!(trainer.join().unwrap(), Ok(()));
        let settled = slot.current();
        assert_eq!(settled.version, 1, "after the publish returned");
        assert_loom_whole(&settled, "after the publish returned");
    });
    grade_ok!("weights_hot_swap_hidden_reader_sees_one_whole_version");
}

#[test]
fn weights_hot_swap_hidden_two_publishes_never_torn_never_backwards() {
    model(|| {
        let slot = loom::sync::Arc::new(loom_slot::WeightSlot::new(Weights::filled(0.0)));
        let trainer = {
            let slot = loom::sync::Arc::clone(&slot);
            loom::thread::spawn(move || {
                slot.publish(1, Weights::filled(1.0)).unwrap();
                slot.publish(2, Weights::filled(2.0)).unwrap();
            })
        };
        let first = slot.current();
        let second = slot.current();
        assert_loom_whole(&first, "first read during two publishes");
        assert_loom_whole(&second, "second read during two publishes");
        assert!(
            second.version >= first.version,
            "the version went down: {} then {}",
            first.version,
            second.version
        );
        trainer.join().unwrap();
        assert_eq!(slot.current().version, 2, "after both publishes returned");
    });
    grade_ok!("weights_hot_swap_hidden_two_publishes_never_torn_never_backwards");
}

#[test]
fn weights_hot_swap_hidden_racing_publishers_keep_the_newest() {
    model(|| {
        let slot = loom::sync::Arc::new(loom_slot::WeightSlot::new(Weights::filled(0.0)));
        let older = {
            let slot = loom::sync::Arc::clone(&slot);
            loom::thread::spawn(move || slot.publish(1, Weights::filled(1.0)))
        };
        let newer = slot.publish(2, Weights::filled(2.0));
        let older = older.join().unwrap();
        assert_eq!(
            newer,
            Ok(()),
            "nothing newer than version 2 was ever published"
        );
        assert!(
            older.is_ok()
                || older
                    == Err(PublishError::Stale {
                        offered: 1,
                        current: 2
                    }),
            "publish(1) racing publish(2) returned {older:?}"
        );
        let settled = slot.current();
        assert_eq!(
            settled.version, 2,
            "two publishers raced and the older version won: versions must only go up"
        );
        assert_loom_whole(&settled, "after two racing publishes");
    });
    grade_ok!("weights_hot_swap_hidden_racing_publishers_keep_the_newest");
}

#[test]
fn weights_hot_swap_hidden_old_snapshot_survives_a_swap() {
    let slot = WeightSlot::new(Weights::filled(0.0));
    let held = slot.current();
    slot.publish(1, Weights::filled(1.0)).unwrap();
    slot.publish(2, Weights::filled(2.0)).unwrap();
    grade_record!(
        "held_then_current",
        (&held.version, &held.weights, slot.current().version),
        0.0
    );
    assert_eq!(held.version, 0);
    assert_std_whole(&held, "a snapshot taken before two publishes");
    assert_std_whole(&slot.current(), "after two publishes");
    assert_eq!(slot.current().version, 2);
    grade_ok!("weights_hot_swap_hidden_old_snapshot_survives_a_swap");
}

#[test]
fn weights_hot_swap_hidden_stress_readers_see_whole_increasing_versions() {
    const VERSIONS: u64 = 300;
    const READERS: usize = 2;
    let slot = WeightSlot::new(Weights::filled(0.0));
    std::thread::scope(|s| {
        let slot = &slot;
        for reader in 0..READERS {
            s.spawn(move || {
                let mut last = 0;
                // Each reader runs until it sees the last version; it checks every snapshot.
                loop {
                    let got = slot.current();
                    assert_std_whole(&got, &format!("reader {reader}"));
                    assert!(
                        got.version >= last,
                        "reader {reader}: the version went down from {last} to {}",
                        got.version
                    );
                    last = got.version;
                    if last == VERSIONS {
                        break;
                    }
                    std::thread::yield_now();
                }
            });
        }
        s.spawn(move || {
            for version in 1..=VERSIONS {
                slot.publish(version, Weights::filled(version as f32))
                    .unwrap();
            }
        });
    });
    grade_record!("after_stress", slot.current().version, 0.0);
    assert_eq!(slot.current().version, VERSIONS);
    grade_ok!("weights_hot_swap_hidden_stress_readers_see_whole_increasing_versions");
}

#[test]
fn weights_hot_swap_hidden_stale_publish_changes_nothing() {
    let slot = WeightSlot::new(Weights::filled(0.0));
    grade_record!("stale_at_0", slot.publish(0, Weights::filled(9.0)), 0.0);
    assert_eq!(
        slot.publish(0, Weights::filled(9.0)),
        Err(PublishError::Stale {
            offered: 0,
            current: 0
        })
    );
    slot.publish(5, Weights::filled(5.0)).unwrap();
    for offered in [3, 5] {
        grade_record!(
            "stale_at_5",
            slot.publish(offered, Weights::filled(9.0)),
            0.0
        );
        assert_eq!(
            slot.publish(offered, Weights::filled(9.0)),
            Err(PublishError::Stale {
                offered,
                current: 5
            })
        );
    }
    let got = slot.current();
    grade_record!("after_stale", (got.version, &got.weights), 0.0);
    assert_eq!(got.version, 5);
    assert_std_whole(&got, "after refused publishes");
    grade_ok!("weights_hot_swap_hidden_stale_publish_changes_nothing");
}

/// Design 2 hands out the published model itself: readers share one `Arc` and the weights a
/// trainer publishes are moved in, not copied. A slot that copies the weights on every read (or
/// on every publish) passes every other test while paying for a whole model per call.
#[test]
fn weights_hot_swap_hidden_readers_share_the_published_copy() {
    use std::sync::Arc;
    let first = Weights::filled(0.0);
    let first_buffer = first.hidden.as_ptr();
    let slot = WeightSlot::new(first);
    let (a, b) = (slot.current(), slot.current());
    let shared_before = Arc::ptr_eq(&a.weights, &b.weights);
    let moved_in_new = a.weights.hidden.as_ptr() == first_buffer;

    let next = Weights::filled(1.0);
    let next_buffer = next.output.as_ptr();
    slot.publish(1, next).unwrap();
    let (c, d) = (slot.current(), slot.current());
    let shared_after = Arc::ptr_eq(&c.weights, &d.weights);
    let moved_in_publish = c.weights.output.as_ptr() == next_buffer;
    let refused = slot.publish(1, Weights::filled(7.0));
    let unchanged = Arc::ptr_eq(&slot.current().weights, &c.weights);
    grade_record!(
        "sharing",
        (
            shared_before,
            moved_in_new,
            shared_after,
            moved_in_publish,
            &refused,
            unchanged
        ),
        0.0
    );
    assert!(
        shared_before && shared_after,
        "two current() calls with no publish between them returned different copies of the \
         weights: hand out clones of one Arc, not new Arcs of cloned weights"
    );
    assert!(
        moved_in_new && moved_in_publish,
        "the weights given to new/publish were copied: move them into the Arc"
    );
    assert!(
        refused.is_err() && unchanged,
        "a refused publish replaced the weights"
    );
    assert!(!Arc::ptr_eq(&a.weights, &c.weights));
    grade_ok!("weights_hot_swap_hidden_readers_share_the_published_copy");
}
