//! The engineering habits of module 5, each as a small before/after pair with tests that show
//! what the "before" gets wrong and what the "after" guarantees:
//!
//! - [`settings`]: settings read from a map of strings by key, against a typed `Settings` struct
//!   checked once at the edge (misspelt keys and out-of-range values become errors that say what
//!   to do);
//! - [`conversions`]: `as` casts that silently wrap, truncate or saturate, against `try_from`
//!   and checked float-to-integer conversion;
//! - [`counters`]: a counter whose `+= 1` overflows differently in debug and release builds,
//!   against counters that say what should happen at the limit;
//! - [`state`]: a level meter that remembers every frame it saw, against a pure function and a
//!   smoothed level whose state the caller passes in and gets back;
//! - [`draft`]: a first draft with `todo!()` where the details go, which the compiler checks for
//!   shape before any detail is written.

pub mod conversions;
pub mod counters;
pub mod draft;
pub mod settings;
pub mod state;
