//! The book's code blocks as doctests. See `build.rs`; run with `cargo xtask book` followed by
//! `cargo test --doc -p book_tests` (both are part of `cargo xtask test`).

include!(concat!(env!("OUT_DIR"), "/chapters.rs"));
