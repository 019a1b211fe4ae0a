//! Exercise: a sequence lock (seqlock) whose memory orderings are all `Relaxed`. Loom finds the
//! bugs; you choose the orderings that fix them.
//!
//! A seqlock lets one writer publish a small value (here two words: a sensor's reading and its
//! timestamp, say) to any number of readers without ever waiting for them. The writer makes a
//! sequence number odd, writes the words, and makes it even again; a reader reads the sequence
//! number, the words, and the sequence number again, and keeps the words only if both numbers
//! are the same even number. Real-time code likes it: the writer never blocks, and a reader that
//! raced with a write simply tries again.
//!
//! The primitive is written against `loom::sync::atomic`, so it only runs inside `loom::model`:
//! every test is a loom model that tries the interleavings (and the stale values a `Relaxed`
//! load may return) that the hardware is allowed to produce.
//!
//! This file is given: the grader always uses the course's copy. Your work is in `seqlock.rs`.

mod seqlock;

pub use seqlock::{Reader, Writer, seqlock};

/// How many 64-bit words the seqlock holds. Two are enough to tear: a reader that gets the first
/// word of one write and the second word of another has a value nobody wrote.
pub const WORDS: usize = 2;

/// What a successful read returns: the words and which write they came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// How many writes had finished when these words were written: 0 for the initial value,
    /// 1 after the first `write`, and so on.
    pub version: u64,
    /// The words of that write, never a mix of two writes.
    pub words: [u64; WORDS],
}
