//! A bounded queue between two stages, with an explicit choice of what happens when it is full.
//!
//! Built on crossbeam-channel rather than module 2's SPSC ring: dropping the *oldest* frame means
//! the producer takes an item off the consumer's end, so that end has two users, which an SPSC
//! ring forbids; crossbeam's channel is multi-consumer, blocks without spinning, and tells a
//! stage when the other side has gone (that is how shutdown travels down the pipeline).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use std::time::Duration;

use crossbeam_channel::{Receiver, SendTimeoutError, Sender, TrySendError};

// ANCHOR: policy
/// What a full queue does to the stage that sends into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The sender waits for room: nothing is lost, and a slow consumer slows the producer down
    /// (back-pressure travels upstream, to the source).
    Block,
    /// The sender throws the oldest queued item away and counts it: the producer keeps its
    /// pace, and the consumer always gets the newest data. The real-time choice for frames.
    DropOldest,
}
// ANCHOR_END: policy

/// Counters shared by both ends.
#[derive(Debug, Default)]
struct Shared {
    sent: AtomicU64,
    dropped: AtomicU64,
    consumer_gone: AtomicBool,
}

/// The queue's counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// Items accepted by `send`.
    pub sent: u64,
    /// Items thrown away by [`Policy::DropOldest`].
    pub dropped: u64,
    /// Items waiting now.
    pub depth: usize,
    pub capacity: usize,
}

/// The consumer has gone: the item could not be delivered, and is handed back.
#[derive(Debug, PartialEq, Eq)]
pub struct Closed<T>(pub T);

/// The producer's end.
pub struct StageSender<T> {
    tx: Sender<T>,
    /// Only for [`Policy::DropOldest`]: the producer's handle on the consumer's end.
    oldest: Receiver<T>,
    policy: Policy,
    shared: Arc<Shared>,
}

/// The consumer's end. When every sender is dropped and the queue is empty, `recv` says so.
pub struct StageReceiver<T> {
    rx: Receiver<T>,
    shared: Arc<Shared>,
}

/// How long a sender waiting for room goes without checking whether the consumer has gone.
const WAIT_SLICE: Duration = Duration::from_millis(10);

/// A queue of at most `capacity` items (at least 1) with the given policy.
pub fn bounded<T>(capacity: usize, policy: Policy) -> (StageSender<T>, StageReceiver<T>) {
    let (tx, rx) = crossbeam_channel::bounded(capacity.max(1));
    let shared = Arc::new(Shared::default());
    let sender = StageSender {
        tx,
        oldest: rx.clone(),
        policy,
        shared: shared.clone(),
    };
    let receiver = StageReceiver { rx, shared };
    (sender, receiver)
}

impl<T> StageSender<T> {
    // ANCHOR: send
    /// Sends `item`, applying the policy when the queue is full.
    pub fn send(&self, item: T) -> Result<(), Closed<T>> {
        if self.shared.consumer_gone.load(Ordering::Acquire) {
            return Err(Closed(item));
        }
        let sent = match self.policy {
            Policy::Block => self.send_or_wake(item),
            Policy::DropOldest => {
                let mut item = item;
                loop {
                    match self.tx.try_send(item) {
                        Ok(()) => break Ok(()),
                        Err(TrySendError::Full(back)) => {
                            // The consumer may take one meanwhile: then there is room and
                            // nothing needs dropping, so count only what was really taken.
                            if self.oldest.try_recv().is_ok() {
                                self.shared.dropped.fetch_add(1, Ordering::Relaxed);
                            }
                            item = back;
                        }
                        Err(TrySendError::Disconnected(back)) => break Err(Closed(back)),
                    }
                }
            }
        };
        if sent.is_ok() {
            self.shared.sent.fetch_add(1, Ordering::Relaxed);
        }
        sent
    }
    // ANCHOR_END: send

    // ANCHOR: send_or_wake
    /// Waits for room, or for the consumer to go. A plain `tx.send` could wait for ever: the
    /// channel stays connected while anyone holds a receiver (this sender's own `oldest`, a
    /// display's counters), so a consumer that failed and dropped its end would never wake it.
    /// So the wait is cut into slices, and the consumer's flag is checked after each. (A
    /// crossbeam `Select` on a second channel would wake at once, but it allocates its list of
    /// cases every time it waits, and the pipeline allocates nothing per frame.)
    fn send_or_wake(&self, mut item: T) -> Result<(), Closed<T>> {
        loop {
            match self.tx.send_timeout(item, WAIT_SLICE) {
                Ok(()) => return Ok(()),
                Err(SendTimeoutError::Timeout(back)) => item = back,
                Err(SendTimeoutError::Disconnected(back)) => return Err(Closed(back)),
            }
            if self.shared.consumer_gone.load(Ordering::Acquire) {
                return Err(Closed(item));
            }
        }
    }
    // ANCHOR_END: send_or_wake

    pub fn stats(&self) -> QueueStats {
        stats(&self.shared, &self.tx)
    }
}

impl<T> StageReceiver<T> {
    /// The next item, waiting for one; `None` once every sender has gone and the queue is empty.
    pub fn recv(&self) -> Option<T> {
        self.rx.recv().ok()
    }

    /// The next item if one is waiting (never blocks).
    pub fn try_recv(&self) -> Option<T> {
        self.rx.try_recv().ok()
    }

    pub fn stats(&self) -> QueueStats {
        stats(&self.shared, &self.rx)
    }

    /// A read-only view of the counters, for a display that does not own this end.
    pub fn counters(&self) -> QueueCounters<T> {
        QueueCounters {
            rx: self.rx.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<T> Drop for StageReceiver<T> {
    fn drop(&mut self) {
        // Other receivers may outlive this end (the producer's own, for dropping the oldest; a
        // display's counters), so the channel alone would not tell the producer that the
        // consumer has gone: this flag does, within one `WAIT_SLICE` for a blocked `send`.
        self.shared.consumer_gone.store(true, Ordering::Release);
    }
}

/// Reads a queue's counters without being one of its ends.
pub struct QueueCounters<T> {
    rx: Receiver<T>,
    shared: Arc<Shared>,
}

impl<T> Clone for QueueCounters<T> {
    fn clone(&self) -> Self {
        Self {
            rx: self.rx.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<T> QueueCounters<T> {
    pub fn stats(&self) -> QueueStats {
        stats(&self.shared, &self.rx)
    }
}

fn stats<C: ChannelLen>(shared: &Shared, channel: &C) -> QueueStats {
    QueueStats {
        sent: shared.sent.load(Ordering::Relaxed),
        dropped: shared.dropped.load(Ordering::Relaxed),
        depth: channel.len(),
        capacity: channel.capacity(),
    }
}

trait ChannelLen {
    fn len(&self) -> usize;
    fn capacity(&self) -> usize;
}

impl<T> ChannelLen for Sender<T> {
    fn len(&self) -> usize {
        Sender::len(self)
    }
    fn capacity(&self) -> usize {
        Sender::capacity(self).unwrap_or(usize::MAX)
    }
}

impl<T> ChannelLen for Receiver<T> {
    fn len(&self) -> usize {
        Receiver::len(self)
    }
    fn capacity(&self) -> usize {
        Receiver::capacity(self).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_oldest_keeps_the_newest_items_and_counts_the_rest() {
        let (tx, rx) = bounded(3, Policy::DropOldest);
        for i in 0..10 {
            tx.send(i).unwrap();
        }
        let stats = tx.stats();
        assert_eq!((stats.sent, stats.dropped, stats.depth), (10, 7, 3));
        drop(tx);
        let left: Vec<i32> = std::iter::from_fn(|| rx.recv()).collect();
        assert_eq!(left, [7, 8, 9]);
        assert_eq!(rx.recv(), None);
    }

    #[test]
    fn block_makes_the_sender_wait_until_the_consumer_takes_one() {
        let (tx, rx) = bounded(2, Policy::Block);
        tx.send(0).unwrap();
        tx.send(1).unwrap();
        let (done_tx, done_rx) = crossbeam_channel::bounded(1);
        let producer = std::thread::spawn(move || {
            tx.send(2).unwrap();
            done_tx.send(()).unwrap();
            tx.stats()
        });
        // The third send cannot finish while the queue is full…
        assert!(
            done_rx
                .recv_timeout(std::time::Duration::from_millis(100))
                .is_err()
        );
        // …and finishes once one item is taken; nothing was dropped.
        assert_eq!(rx.recv(), Some(0));
        done_rx.recv().unwrap();
        let stats = producer.join().unwrap();
        assert_eq!((stats.sent, stats.dropped), (3, 0));
        assert_eq!([rx.recv(), rx.recv(), rx.recv()], [Some(1), Some(2), None]);
    }

    #[test]
    fn a_sender_blocked_on_a_full_queue_wakes_when_the_consumer_goes() {
        let (tx, rx) = bounded(1, Policy::Block);
        // A display's counters hold a receiver of the same channel: it must not keep the
        // blocked sender waiting.
        let counters = rx.counters();
        tx.send(0).unwrap();
        let (done_tx, done_rx) = crossbeam_channel::bounded(1);
        let producer = std::thread::spawn(move || done_tx.send(tx.send(1)).unwrap());
        assert!(
            done_rx
                .recv_timeout(std::time::Duration::from_millis(50))
                .is_err(),
            "the queue is full: the send waits"
        );
        drop(rx);
        let woke = done_rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(woke, Ok(Err(Closed(1))));
        producer.join().unwrap();
        assert_eq!(counters.stats().sent, 1);
    }

    // ANCHOR: plain_send
    #[test]
    fn a_plain_send_would_still_wait_after_the_consumer_goes() {
        // What `send_or_wake` avoids: crossbeam's own blocking send, given 100 ms instead of
        // for ever. The sender keeps a receiver of its own (`oldest`), so dropping the
        // consumer's end leaves the channel connected, and nothing wakes the send.
        let (tx, consumer) = crossbeam_channel::bounded(1);
        let senders_own = consumer.clone();
        tx.send(0).unwrap();
        drop(consumer);
        let waited = tx.send_timeout(1, std::time::Duration::from_millis(100));
        assert_eq!(waited, Err(crossbeam_channel::SendTimeoutError::Timeout(1)));
        // Only when the last receiver goes does the channel report the disconnection.
        drop(senders_own);
        assert!(tx.send(2).is_err());
    }
    // ANCHOR_END: plain_send

    #[test]
    fn a_sender_learns_that_the_consumer_has_gone() {
        for policy in [Policy::Block, Policy::DropOldest] {
            let (tx, rx) = bounded(1, policy);
            drop(rx);
            assert_eq!(tx.send(5), Err(Closed(5)), "{policy:?}");
        }
    }
}
