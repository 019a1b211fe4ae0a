#![cfg(not(loom))]
//! The correct primitives under real threads: many operations, checked totals. Loom proves the
//! orderings on small models; these show the primitives also work at scale, on this machine's
//! memory model, with no lost or duplicated values.

use std::sync::Arc;
use std::thread;

use parallelism::primitives::{oneshot, refcount, spin_lock, spsc};

#[test]
fn spin_lock_counts_every_increment() {
    let lock = Arc::new(spin_lock::SpinLock::new(0u64));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let lock = lock.clone();
            thread::spawn(move || {
                for _ in 0..20_000 {
                    lock.lock(|v| *v += 1);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(lock.lock(|v| *v), 80_000);
}

#[test]
fn spin_lock_unlocks_when_the_closure_panics() {
    let lock = Arc::new(spin_lock::SpinLock::new(1));
    let other = lock.clone();
    let result = thread::spawn(move || other.lock(|_| panic!("boom"))).join();
    assert!(result.is_err());
    assert_eq!(lock.lock(|v| *v), 1);
}

#[test]
fn spsc_delivers_every_message_in_order() {
    const N: u64 = 100_000;
    let (mut tx, mut rx) = spsc::ring_buffer::<u64>(64).unwrap();
    let producer = thread::spawn(move || {
        for i in 0..N {
            let mut v = i;
            while let Err(back) = tx.push(v) {
                v = back;
                std::hint::spin_loop();
            }
        }
    });
    let mut expected = 0;
    while expected < N {
        if let Some(v) = rx.pop() {
            assert_eq!(v, expected);
            expected += 1;
        } else {
            std::hint::spin_loop();
        }
    }
    producer.join().unwrap();
    assert_eq!(rx.pop(), None);
}

#[test]
fn spsc_reports_full_and_empty() {
    let (mut tx, mut rx) = spsc::ring_buffer::<u8>(2).unwrap();
    assert_eq!(rx.pop(), None);
    assert_eq!(tx.push(1), Ok(()));
    assert_eq!(tx.push(2), Ok(()));
    assert_eq!(tx.push(3), Err(3));
    assert_eq!(rx.pop(), Some(1));
    assert_eq!(tx.push(3), Ok(()));
    assert_eq!((rx.pop(), rx.pop(), rx.pop()), (Some(2), Some(3), None));
}

#[test]
fn spsc_rejects_a_bad_capacity_with_advice() {
    let err = spsc::ring_buffer::<u8>(10).err().unwrap();
    assert_eq!(err, spsc::CapacityError { capacity: 10 });
    let text = err.to_string();
    assert!(
        text.contains("power of two") && text.contains("16"),
        "{text}"
    );
}

#[test]
fn spsc_drops_messages_left_in_the_ring() {
    let counter = Arc::new(());
    {
        let (mut tx, _rx) = spsc::ring_buffer(4).unwrap();
        tx.push(counter.clone()).unwrap();
        tx.push(counter.clone()).unwrap();
        assert_eq!(Arc::strong_count(&counter), 3);
    }
    assert_eq!(Arc::strong_count(&counter), 1);
}

#[test]
fn oneshot_hands_over_many_messages() {
    for i in 0..300 {
        let (tx, rx) = oneshot::channel();
        let t = thread::spawn(move || tx.send(vec![i; 8]));
        assert_eq!(rx.receive(), vec![i; 8]);
        t.join().unwrap();
    }
}

#[test]
fn oneshot_drops_an_unreceived_message_and_receives_once() {
    let counter = Arc::new(());
    let (tx, rx) = oneshot::channel();
    tx.send(counter.clone());
    drop(rx);
    assert_eq!(Arc::strong_count(&counter), 1);

    let (tx, mut rx) = oneshot::channel();
    tx.send(5);
    assert_eq!((rx.try_receive(), rx.try_receive()), (Some(5), None));
}

#[test]
fn mini_arc_frees_exactly_once_after_the_last_clone() {
    let witness = Arc::new(());
    let shared = refcount::MiniArc::new(witness.clone());
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let mine = shared.clone();
            thread::spawn(move || {
                for _ in 0..5_000 {
                    let extra = mine.clone();
                    assert!(refcount::MiniArc::count(&extra) >= 2);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(refcount::MiniArc::count(&shared), 1);
    assert_eq!(Arc::strong_count(&witness), 2);
    drop(shared);
    assert_eq!(Arc::strong_count(&witness), 1);
}
