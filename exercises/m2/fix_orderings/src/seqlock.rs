//! The seqlock itself. Every atomic access below is `Ordering::Relaxed`: it compiles, it runs,
//! and on a single thread it even gives the right answers, but loom finds readers that see a
//! finished write only in part, or not at all. Choose each access's ordering, the weakest one
//! that is correct, and say why in a comment next to it. Change nothing else.

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
        shared.seq.store(seq + 1, Ordering::Relaxed);
        for (slot, word) in shared.words.iter().zip(words) {
            slot.store(word, Ordering::Relaxed);
        }
        shared.seq.store(seq + 2, Ordering::Relaxed);
        self.seq = seq + 2;
    }
}

impl Drop for Writer {
    /// Tells the readers that the value they read now is final.
    fn drop(&mut self) {
        self.shared.closed.store(true, Ordering::Relaxed);
    }
}

impl Reader {
    /// The current value, or `None` if a write was in progress or finished while reading (the
    /// words might then be a mix of two writes). Never waits.
    pub fn try_read(&self) -> Option<Snapshot> {
        let shared = &*self.shared;
        let before = shared.seq.load(Ordering::Relaxed);
        if before % 2 == 1 {
            return None;
        }
        let words = std::array::from_fn(|i| shared.words[i].load(Ordering::Relaxed));
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
        self.shared.closed.load(Ordering::Relaxed)
    }
}
