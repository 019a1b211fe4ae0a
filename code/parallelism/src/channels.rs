//! Channels: std's `mpsc` and crossbeam's, bounded and unbounded, back-pressure, and a
//! fan-out / fan-in pipeline.

use std::sync::mpsc;
use std::thread;

// ANCHOR: std_mpsc
/// Many producers, one consumer, with std's channel: each worker sends its partial result.
pub fn squares_with_std_mpsc(inputs: &[u64], workers: usize) -> u64 {
    let (tx, rx) = mpsc::channel();
    let chunk = inputs.len().div_ceil(workers.max(1)).max(1);
    thread::scope(|s| {
        for part in inputs.chunks(chunk) {
            let tx = tx.clone();
            s.spawn(move || tx.send(part.iter().map(|x| x * x).sum::<u64>()).unwrap());
        }
    });
    drop(tx); // the last sender gone: the receiving iterator ends
    rx.iter().sum()
}
// ANCHOR_END: std_mpsc

// ANCHOR: fan_out_fan_in
/// A three-stage pipeline: one source, `workers` parallel squarers pulling from one bounded
/// channel (fan-out), and one sink collecting from a second channel (fan-in).
/// The bounded channels give back-pressure: a fast source blocks instead of filling memory.
pub fn pipeline_sum_of_squares(n: u64, workers: usize, capacity: usize) -> u64 {
    let (jobs_tx, jobs_rx) = crossbeam_channel::bounded::<u64>(capacity);
    let (done_tx, done_rx) = crossbeam_channel::bounded::<u64>(capacity);
    thread::scope(|s| {
        s.spawn(move || {
            for i in 0..n {
                jobs_tx.send(i).unwrap(); // blocks while the channel is full
            }
        }); // jobs_tx dropped here: the workers' loops end when the queue drains
        for _ in 0..workers.max(1) {
            let (jobs_rx, done_tx) = (jobs_rx.clone(), done_tx.clone());
            s.spawn(move || {
                for i in jobs_rx {
                    done_tx.send(i * i).unwrap();
                }
            });
        }
        drop(done_tx);
        done_rx.iter().sum()
    })
}
// ANCHOR_END: fan_out_fan_in

// ANCHOR: back_pressure
/// Back-pressure made visible: with the consumer not reading yet, how many of `messages` can
/// the producer queue before the channel says "full"? Bounded: `capacity`, then `send` would
/// block (here `try_send` reports it). Unbounded: all of them; memory is the only limit.
pub fn queued_before_full(capacity: Option<usize>, messages: usize) -> usize {
    let (tx, rx) = match capacity {
        Some(c) => crossbeam_channel::bounded(c),
        None => crossbeam_channel::unbounded(),
    };
    let mut queued = 0;
    for i in 0..messages {
        match tx.try_send(i) {
            Ok(()) => queued += 1,
            Err(crossbeam_channel::TrySendError::Full(_)) => break,
            Err(crossbeam_channel::TrySendError::Disconnected(_)) => unreachable!("rx is alive"),
        }
    }
    debug_assert_eq!(rx.len(), queued);
    queued
}
// ANCHOR_END: back_pressure

// ANCHOR: select
/// Why [`collect_until_stopped`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// A message arrived on the stop channel.
    Stopped,
    /// Every result sender is gone.
    Finished,
    /// Nothing arrived on either channel for the idle limit.
    Idle,
}

/// Collects results until told to stop, until the producers are gone, or until nothing has
/// arrived for `idle`: `select!` waits on both channels and a timeout at once, and runs the
/// arm of whichever is ready first.
pub fn collect_until_stopped(
    results: &crossbeam_channel::Receiver<u64>,
    stop: &crossbeam_channel::Receiver<()>,
    idle: std::time::Duration,
) -> (Vec<u64>, Ended) {
    let mut got = Vec::new();
    loop {
        crossbeam_channel::select! {
            recv(results) -> msg => match msg {
                Ok(v) => got.push(v),
                Err(_) => return (got, Ended::Finished),
            },
            recv(stop) -> _ => return (got, Ended::Stopped),
            default(idle) => return (got, Ended::Idle),
        }
    }
}
// ANCHOR_END: select

/// One look at a queue while it is being filled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueSample {
    pub sent: usize,
    pub elapsed: std::time::Duration,
    pub queued: usize,
}

// ANCHOR: queue_trace
/// A producer sends `messages` as fast as the channel lets it to a consumer that does `rounds`
/// of work per message; every `every` messages the producer records how many wait in the queue.
pub fn queue_length_trace(
    capacity: Option<usize>,
    messages: usize,
    every: usize,
    rounds: u32,
) -> Vec<QueueSample> {
    let (tx, rx) = match capacity {
        Some(c) => crossbeam_channel::bounded(c),
        None => crossbeam_channel::unbounded(),
    };
    let start = std::time::Instant::now();
    thread::scope(|s| {
        s.spawn(move || {
            for m in rx {
                std::hint::black_box(crate::contention::work(m as u64, rounds));
            }
        });
        let mut samples = Vec::with_capacity(messages / every.max(1) + 1);
        for m in 0..messages {
            tx.send(m).unwrap(); // bounded: blocks while full, so the queue cannot grow
            if m % every.max(1) == 0 {
                let (elapsed, queued) = (start.elapsed(), tx.len());
                samples.push(QueueSample {
                    sent: m + 1,
                    elapsed,
                    queued,
                });
            }
        }
        drop(tx); // no more messages: the consumer's loop ends, so the scope can join it
        samples
    })
}
// ANCHOR_END: queue_trace

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_and_crossbeam_pipelines_agree() {
        let inputs: Vec<u64> = (0..1000).collect();
        let expected: u64 = inputs.iter().map(|x| x * x).sum();
        assert_eq!(squares_with_std_mpsc(&inputs, 3), expected);
        assert_eq!(pipeline_sum_of_squares(1000, 3, 8), expected);
        assert_eq!(pipeline_sum_of_squares(0, 2, 1), 0);
    }

    #[test]
    fn a_bounded_channel_pushes_back() {
        assert_eq!(queued_before_full(Some(4), 300), 4);
        assert_eq!(queued_before_full(None, 300), 300);
    }

    #[test]
    fn select_returns_for_each_reason() {
        use std::time::Duration;
        let (tx, results) = crossbeam_channel::unbounded();
        let (stop_tx, stop) = crossbeam_channel::bounded(1);
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        let idle = collect_until_stopped(&results, &stop, Duration::from_millis(20));
        assert_eq!(idle, (vec![1, 2], Ended::Idle));
        stop_tx.send(()).unwrap();
        assert_eq!(
            collect_until_stopped(&results, &stop, Duration::from_secs(5)).1,
            Ended::Stopped
        );
        let producer = thread::spawn(move || (10..13).for_each(|v| tx.send(v).unwrap()));
        let finished = collect_until_stopped(&results, &stop, Duration::from_secs(5));
        producer.join().unwrap();
        assert_eq!(finished, (vec![10, 11, 12], Ended::Finished));
    }

    #[test]
    fn a_bounded_queue_stays_short_and_an_unbounded_one_grows() {
        let bounded = queue_length_trace(Some(16), 5_000, 50, 2_000);
        assert!(bounded.iter().all(|s| s.queued <= 16));
        let unbounded = queue_length_trace(None, 5_000, 50, 2_000);
        let longest = unbounded.iter().map(|s| s.queued).max().unwrap();
        assert!(
            longest > 64,
            "the slow consumer fell behind by only {longest}"
        );
        assert_eq!(unbounded.len(), 100);
        assert_eq!(unbounded.last().unwrap().sent, 4_951);
    }
}
