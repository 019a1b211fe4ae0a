//! Rule: hand data to another thread without a lock. A `Mutex<VecDeque>` makes the loop wait
//! whenever the other side holds the lock; the module 2 SPSC ring never waits.
//!
//! The producer sends a timestamp every `gap`; the consumer polls. Two things are recorded:
//! how long the producer's send takes (what the hot loop pays) and how long a message takes
//! from send to receive (what the other side sees).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::latency::{LatencyRecorder, LatencySummary};
use crate::spsc::ring_buffer;

/// The two ways to hand a message over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handoff {
    Mutex,
    SpscRing,
}

/// What one hand-off run measured.
#[derive(Clone, Copy, Debug)]
pub struct HandoffResult {
    /// Time the producer spent in its send.
    pub send: LatencySummary,
    /// Time from the send's start to the receive.
    pub delivery: LatencySummary,
    pub delivered: u64,
}

const CAPACITY: usize = 1024;
/// Marks the end of the stream.
const DONE: u64 = u64::MAX;

fn spin_until(deadline: Instant) {
    while Instant::now() < deadline {
        std::hint::spin_loop();
    }
}

/// Sends `messages` timestamps, one per `gap`, through `kind`; every message arrives.
pub fn measure(kind: Handoff, messages: u64, gap: Duration) -> HandoffResult {
    let epoch = Instant::now();
    let since_epoch = move || epoch.elapsed().as_nanos() as u64;
    let (send_latency, consumer) = match kind {
        Handoff::Mutex => {
            let queue = Arc::new(Mutex::new(VecDeque::with_capacity(CAPACITY)));
            let rx = Arc::clone(&queue);
            let consumer = std::thread::spawn(move || {
                receive(since_epoch, || {
                    // A poisoned lock means the producer panicked: stop receiving.
                    rx.lock().map_or(Some(DONE), |mut q| q.pop_front())
                })
            });
            let send = produce(messages, gap, since_epoch, |t| {
                if let Ok(mut q) = queue.lock()
                    && q.len() < CAPACITY
                {
                    q.push_back(t);
                    return true;
                }
                false
            });
            (send, consumer)
        }
        Handoff::SpscRing => {
            let (mut tx, mut rx) = ring_buffer::<u64>(CAPACITY).expect("1024 is a power of two");
            let consumer = std::thread::spawn(move || receive(since_epoch, || rx.pop()));
            let send = produce(messages, gap, since_epoch, |t| tx.push(t).is_ok());
            (send, consumer)
        }
    };
    let (delivery, delivered) = consumer.join().expect("the consumer thread does not panic");
    HandoffResult {
        send: send_latency.summary(),
        delivery,
        delivered,
    }
}

// ANCHOR: produce
fn produce(
    messages: u64,
    gap: Duration,
    now_ns: impl Fn() -> u64,
    mut send: impl FnMut(u64) -> bool,
) -> LatencyRecorder {
    let mut recorder = LatencyRecorder::new();
    let mut next = Instant::now();
    for _ in 0..messages {
        next += gap;
        spin_until(next);
        let start = Instant::now();
        // A full queue is retried: this test measures hand-off, not dropping.
        while !send(now_ns()) {
            std::hint::spin_loop();
        }
        recorder.record(start.elapsed());
    }
    while !send(DONE) {
        std::hint::spin_loop();
    }
    recorder
}
// ANCHOR_END: produce

fn receive(
    now_ns: impl Fn() -> u64,
    mut poll: impl FnMut() -> Option<u64>,
) -> (LatencySummary, u64) {
    let mut recorder = LatencyRecorder::new();
    let mut delivered = 0;
    loop {
        match poll() {
            Some(DONE) => break,
            Some(sent) => {
                recorder.record(Duration::from_nanos(now_ns().saturating_sub(sent)));
                delivered += 1;
            }
            None => std::hint::spin_loop(),
        }
    }
    (recorder.summary(), delivered)
}
