//! The seqlock itself, with the weakest orderings that are correct. Three pairs of accesses
//! carry the proof; everything else may stay `Relaxed`:
//!
//! 1. the writer's final (even) `seq` store is `Release`, and the reader's first `seq` load is
//!    `Acquire`: a reader that sees a write finished sees all of its words;
//! 2. every word store is `Release` and every word load is `Acquire`: a reader that sees even one
//!    word of a write that had not finished when it started also sees that write's odd `seq`,
//!    so its second `seq` load differs from the first and the mix is thrown away;
//! 3. the `closed` store is `Release` and its load is `Acquire`: a reader that sees the writer
//!    gone sees everything the writer did before it went.

use loom::hint;
use loom::sync::Arc;
use loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::{Snapshot, WORDS};

/// What the writer and the readers share.
struct Shared {
    /// Twice the number of finished writes, plus one while a write is in progress: an odd
    /// value tells readers that the words are being changed.
    seq: AtomicU64,
    /// The value. Atomic words, so that a reader racing with the writer reads stale or mixed
    /// words (which the sequence check then rejects) rather than undefined behaviour.
    words: [AtomicU64; WORDS],
    /// Set when the writer is dropped: no write will ever follow.
    closed: AtomicBool,
}

/// The one writer. Not `Clone`, and `write` takes `&mut self`: two writers would both make the
/// sequence number odd and interleave their words.
pub struct Writer {
    shared: Arc<Shared>,
    /// The writer's copy of `shared.seq`: only the writer changes it, so it never reads it back.
    seq: u64,
}

/// A reader; clone it for more readers.
#[derive(Clone)]
pub struct Reader {
    shared: Arc<Shared>,
}

/// A seqlock holding `initial` (version 0), and its writer and first reader.
pub fn seqlock(initial: [u64; WORDS]) -> (Writer, Reader) {
    let shared = Arc::new(Shared {
        seq: AtomicU64::new(0),
        words: initial.map(AtomicU64::new),
        closed: AtomicBool::new(false),
    });
    (
        Writer {
            shared: shared.clone(),
            seq: 0,
        },
        Reader { shared },
    )
}

impl Writer {
    /// Publishes `words` as the next version. Never waits for readers.
    pub fn write(&mut self, words: [u64; WORDS]) {
        let shared = &*self.shared;
        let seq = self.seq;
        // Relaxed: nothing needs to be visible *because* a reader saw this odd value. What keeps
        // readers from trusting words written after it is pair 2 below.
        shared.seq.store(seq + 1, Ordering::Relaxed);
        for (slot, word) in shared.words.iter().zip(words) {
            // Release (pair 2): a reader that Acquire-loads this word also sees the odd `seq`
            // stored above, so its second `seq` load cannot return the even value it started
            // with. With Relaxed, it could keep half of this write and half of the previous one.
            slot.store(word, Ordering::Release);
        }
        // Release (pair 1): every word store above happens before a reader's Acquire load that
        // sees this even value. With Relaxed, a reader could see `seq + 2` and stale words.
        // Wrong on purpose: the even seq no longer publishes the words stored before it.
        shared.seq.store(seq + 2, Ordering::Relaxed);
        self.seq = seq + 2;
    }
}

impl Drop for Writer {
    /// Tells the readers that the value they read now is final.
    fn drop(&mut self) {
        // Release (pair 3): every write finished before the drop happens before a reader's
        // Acquire load that sees `true`. With Relaxed, a reader could learn that the writer
        // is gone and still read an older version.
        self.shared.closed.store(true, Ordering::Release);
    }
}

impl Reader {
    /// The current value, or `None` if a write was in progress or finished while reading (the
    /// words might then be a mix of two writes). Never waits.
    pub fn try_read(&self) -> Option<Snapshot> {
        let shared = &*self.shared;
        // Acquire (pair 1): if this sees the even value a write ended with, the words of that
        // write are visible to the loads below.
        let before = shared.seq.load(Ordering::Acquire);
        if before % 2 == 1 {
            return None;
        }
        // Acquire (pair 2): a word written by a later write brings that write's odd `seq` with
        // it, so `after` below cannot still equal `before`. Acquire also keeps the `after` load
        // from being done before these loads.
        let words = std::array::from_fn(|i| shared.words[i].load(Ordering::Acquire));
        // Relaxed: the Acquire loads above already order it after the words and make every
        // `seq` store it must not miss visible to it; nothing is read after it.
        let after = shared.seq.load(Ordering::Relaxed);
        (before == after).then_some(Snapshot {
            version: before / 2,
            words,
        })
    }

    /// The current value, trying again until no write gets in the way.
    pub fn read(&self) -> Snapshot {
        loop {
            if let Some(snapshot) = self.try_read() {
                return snapshot;
            }
            // Under loom this lets the writer run: without it, loom would explore a reader
            // that spins forever.
            hint::spin_loop();
        }
    }

    /// Whether the writer has been dropped. Once this returns `true`, `read` returns the last
    /// value written, and always will.
    pub fn is_closed(&self) -> bool {
        // Acquire (pair 3): seeing `true` makes the writer's last `seq` and words visible, so a
        // read that follows returns the final version.
        self.shared.closed.load(Ordering::Acquire)
    }
}
