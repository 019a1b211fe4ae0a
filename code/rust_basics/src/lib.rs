//! Module 0: the parts of Rust this course leans on, one small module per topic.
//!
//! Every function here is shown in the book ("Rust for this course") and tested here, so the book
//! never shows code that does not compile or does not do what the page says.
//!
//! ```
//! use rust_basics::iterators::{dot_indexed, dot_iter};
//! let (a, b) = ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]);
//! assert_eq!(dot_indexed(&a, &b), dot_iter(&a, &b));
//! ```

pub mod benchmarking;
pub mod errors;
pub mod gpu_async;
pub mod iterators;
pub mod move_copy_clone;
pub mod ownership;
pub mod smart_pointers;
pub mod state_machine;
pub mod testing;
pub mod traits;
