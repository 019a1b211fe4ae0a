//! Exercise: a frame step that allocates nothing once it is running.
//!
//! This file is given (the grader uses the staff copy): the errors. Your work: `src/top_k.rs`.

mod top_k;

pub use top_k::TopK;

/// Why a frame's logits were refused.
#[derive(Debug, PartialEq, Eq)]
pub enum FrameError {
    /// No logits: there is nothing to rank.
    Empty,
    /// More logits than the `max_len` given to [`TopK::new`].
    TooLong { len: usize, max_len: usize },
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => write!(f, "the frame has no logits: pass at least one"),
            Self::TooLong { len, max_len } => write!(
                f,
                "the frame has {len} logits but TopK was made for at most {max_len}: \
                 make it with a larger max_len"
            ),
        }
    }
}

impl std::error::Error for FrameError {}
