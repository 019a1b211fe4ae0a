//! A one-shot channel: one message, sent once, received once.
//!
//! 1. [`s1_relaxed`]: the "ready" flag is set and read with `Relaxed`: the receiver may see the
//!    flag before the message;
//! 2. [`s2_correct`]: `Release` when setting the flag, `Acquire` when reading it.
//!
//! `send` takes the sender by value, so a second send does not compile: the type system rules
//! out the "sent twice" bug that a runtime check would otherwise have to catch.

pub mod s1_relaxed;
pub mod s2_correct;

pub use s2_correct::{Receiver, Sender, channel};
