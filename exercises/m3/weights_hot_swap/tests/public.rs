//! Public tests: `cargo nextest run -p ex_m3_weights_hot_swap`. Three single-thread checks with
//! std and one loom model; the hidden tests add more models and a stress test with real threads.

use ex_m3_weights_hot_swap::{PublishError, WeightSlot, Weights, loom_slot};
use loom::model::Builder;
use loom::sync::Arc;
use loom::thread;

/// Loom with a preemption bound: enough for these races, small enough to take well under a second.
fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

#[test]
fn weights_hot_swap_public_publish_then_current() {
    let slot = WeightSlot::new(Weights::filled(0.0));
    let first = slot.current();
    assert_eq!(first.version, 0);
    assert_eq!(*first.weights, Weights::filled(0.0));

    slot.publish(1, Weights::filled(1.0)).unwrap();
    let second = slot.current();
    assert_eq!(second.version, 1);
    assert_eq!(*second.weights, Weights::filled(1.0));
}

#[test]
fn weights_hot_swap_public_reads_share_one_model() {
    let slot = WeightSlot::new(Weights::filled(0.0));
    slot.publish(1, Weights::filled(1.0)).unwrap();
    let (a, b) = (slot.current(), slot.current());
    assert!(
        std::sync::Arc::ptr_eq(&a.weights, &b.weights),
        "two reads with no publish between them must share one model (clone the Arc, not the \
         weights)"
    );
}

#[test]
fn weights_hot_swap_public_older_version_is_refused() {
    let slot = WeightSlot::new(Weights::filled(0.0));
    slot.publish(3, Weights::filled(3.0)).unwrap();
    assert_eq!(
        slot.publish(2, Weights::filled(2.0)),
        Err(PublishError::Stale {
            offered: 2,
            current: 3
        })
    );
    assert_eq!(slot.current().version, 3);
}

#[test]
fn weights_hot_swap_public_reader_sees_old_or_new() {
    model(|| {
        let slot = Arc::new(loom_slot::WeightSlot::new(Weights::filled(0.0)));
        let trainer = {
            let slot = Arc::clone(&slot);
            thread::spawn(move || slot.publish(1, Weights::filled(1.0)).unwrap())
        };
        let got = slot.current();
        assert!(
            got.version <= 1 && got.weights.uniform_value() == Some(got.version as f32),
            "current() returned version {} with weights {:?} while version 1 was published \
             over version 0",
            got.version,
            got.weights
        );
        trainer.join().unwrap();
    });
}
