use std::fmt;

/// What a caller got wrong, and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// A matrix was given a buffer whose length is not `rows * cols`.
    ShapeMismatch {
        rows: usize,
        cols: usize,
        len: usize,
    },
    /// An index list that should be a permutation of `0..n` is not one.
    NotAPermutation { n: usize, problem: String },
    /// A size or count that must be positive was zero.
    Empty(&'static str),
    /// Two buffers that a kernel walks in step have different lengths.
    LengthMismatch {
        what: &'static str,
        dst: usize,
        src: usize,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ShapeMismatch { rows, cols, len } => write!(
                f,
                "a {rows}×{cols} matrix needs {} elements but the buffer holds {len}; \
                 pass a buffer of length rows * cols",
                rows * cols
            ),
            Self::NotAPermutation { n, problem } => write!(
                f,
                "the index list is not a permutation of 0..{n}: {problem}; \
                 every index below {n} must appear exactly once"
            ),
            Self::Empty(what) => write!(f, "{what} must be at least 1"),
            Self::LengthMismatch { what, dst, src } => write!(
                f,
                "{what}: the output holds {dst} elements but the input {src}; \
                 pass buffers of the same length"
            ),
        }
    }
}

impl std::error::Error for MemoryError {}
