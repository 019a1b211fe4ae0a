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
}
