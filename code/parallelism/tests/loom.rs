#![cfg(loom)]
//! Loom models of the primitives. Run with
//! `RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo nextest run --release -p parallelism --test loom`.
//!
//! Each correct primitive must pass every interleaving loom explores; each broken twin must be
//! caught, which the `should_panic(expected = ...)` attribute turns into a passing test.

use loom::model::Builder;
use loom::sync::Arc;
use loom::thread;

use parallelism::primitives::{fence_flag, oneshot, refcount, spin_lock, spsc};

/// Models stay small and bounded so the whole file runs in a few seconds: loom's cost grows
/// with the number of preemptions it tries in each execution.
fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

// ANCHOR: spin_lock_models
#[test]
fn spin_lock_correct_passes() {
    model(|| {
        let lock = Arc::new(spin_lock::SpinLock::new(0));
        let other = lock.clone();
        let t = thread::spawn(move || other.lock(|v| *v += 1));
        lock.lock(|v| *v += 1);
        t.join().unwrap();
        assert_eq!(lock.lock(|v| *v), 2);
    });
}

#[test]
#[should_panic(expected = "Causality violation")]
fn spin_lock_check_then_act_is_caught() {
    model(|| {
        let lock = Arc::new(spin_lock::s1_racy::RacySpinLock::new(0));
        let other = lock.clone();
        let t = thread::spawn(move || other.lock(|v| *v += 1));
        lock.lock(|v| *v += 1);
        t.join().unwrap();
    });
}

#[test]
#[should_panic(expected = "Causality violation")]
fn spin_lock_relaxed_is_caught() {
    model(|| {
        let lock = Arc::new(spin_lock::s2_relaxed::RelaxedSpinLock::new(0));
        let other = lock.clone();
        let t = thread::spawn(move || other.lock(|v| *v += 1));
        lock.lock(|v| *v += 1);
        t.join().unwrap();
    });
}
// ANCHOR_END: spin_lock_models

#[test]
fn spsc_correct_passes() {
    model(|| {
        // Capacity 2 and three messages: the producer must wait for a slot to be freed, so the
        // model covers both hand-overs (slot to consumer, and slot back to producer).
        let (mut tx, mut rx) = spsc::ring_buffer::<u32>(2).unwrap();
        let producer = thread::spawn(move || {
            for i in 0..3 {
                while tx.push(i).is_err() {
                    thread::yield_now();
                }
            }
        });
        for i in 0..3 {
            loop {
                if let Some(v) = rx.pop() {
                    assert_eq!(v, i);
                    break;
                }
                thread::yield_now();
            }
        }
        producer.join().unwrap();
    });
}

// ANCHOR: spsc_models
#[test]
#[should_panic(expected = "Causality violation")]
fn spsc_relaxed_is_caught() {
    model(|| {
        let (mut tx, mut rx) = spsc::s1_relaxed::relaxed_ring_buffer::<u32>(2).unwrap();
        let producer = thread::spawn(move || {
            for i in 0..3 {
                while tx.push(i).is_err() {
                    thread::yield_now();
                }
            }
        });
        for _ in 0..3 {
            while rx.pop().is_none() {
                thread::yield_now();
            }
        }
        producer.join().unwrap();
    });
}
// ANCHOR_END: spsc_models

#[test]
fn oneshot_correct_passes() {
    model(|| {
        let (tx, rx) = oneshot::channel::<String>();
        let t = thread::spawn(move || tx.send("hello".to_owned()));
        assert_eq!(rx.receive(), "hello");
        t.join().unwrap();
    });
}

#[test]
#[should_panic(expected = "Causality violation")]
fn oneshot_relaxed_is_caught() {
    model(|| {
        let (tx, rx) = oneshot::s1_relaxed::relaxed_channel::<String>();
        let t = thread::spawn(move || tx.send("hello".to_owned()));
        assert_eq!(rx.receive(), "hello");
        t.join().unwrap();
    });
}

/// A value whose drop writes to it, so loom sees the free as a write that must come after
/// every other thread's read.
struct Payload(loom::cell::UnsafeCell<u32>);

impl Payload {
    fn read(&self) -> u32 {
        self.0.with(|p| unsafe { *p })
    }
}

impl Drop for Payload {
    fn drop(&mut self) {
        self.0.with_mut(|p| unsafe { *p = 0 });
    }
}

// ANCHOR: refcount_models
#[test]
fn refcount_correct_passes() {
    model(|| {
        let a = refcount::MiniArc::new(Payload(loom::cell::UnsafeCell::new(7)));
        let b = a.clone();
        let t = thread::spawn(move || {
            assert_eq!(b.read(), 7);
            drop(b);
        });
        assert_eq!(a.read(), 7);
        drop(a);
        t.join().unwrap();
    });
}

#[test]
#[should_panic(expected = "Causality violation")]
fn refcount_relaxed_is_caught() {
    model(|| {
        let a = refcount::s1_relaxed::RelaxedArc::new(Payload(loom::cell::UnsafeCell::new(7)));
        let b = a.clone();
        let t = thread::spawn(move || {
            assert_eq!(b.read(), 7);
            drop(b);
        });
        assert_eq!(a.read(), 7);
        drop(a);
        t.join().unwrap();
    });
}
// ANCHOR_END: refcount_models

// ANCHOR: fence_models
#[test]
fn fenced_flag_passes() {
    model(|| {
        let slot = Arc::new(fence_flag::FencedSlot::new());
        let writer = slot.clone();
        let t = thread::spawn(move || writer.publish(42));
        if let Some(v) = slot.try_read() {
            assert_eq!(v, 42);
        }
        t.join().unwrap();
    });
}

#[test]
#[should_panic(expected = "Causality violation")]
fn unfenced_flag_is_caught() {
    model(|| {
        let slot = Arc::new(fence_flag::UnfencedSlot::new());
        let writer = slot.clone();
        let t = thread::spawn(move || writer.publish(42));
        if let Some(v) = slot.try_read() {
            assert_eq!(v, 42);
        }
        t.join().unwrap();
    });
}
// ANCHOR_END: fence_models
