//! Exercise: a small search index over documents, rewritten until the borrow checker accepts it.
//!
//! This file is given (the grader uses the staff copy): the `Document` type, what counts as a
//! word, the index type and the merge error. Your work: `src/library.rs`.

mod library;

use std::collections::BTreeMap;
use std::fmt;

pub use library::{add_and_index, merge, remove_containing, snippet};

/// One document of the library. The body is the big part: the functions of this exercise move
/// it or borrow it, and never copy it.
#[derive(Debug, PartialEq, Eq)]
pub struct Document {
    pub title: String,
    pub body: String,
}

impl Document {
    pub fn new(title: &str, body: &str) -> Self {
        Self {
            title: title.to_owned(),
            body: body.to_owned(),
        }
    }
}

/// Word → positions (in the library's `Vec<Document>`) of the documents whose body contains it,
/// in increasing order, each once. The keys are slices of the bodies, not copies.
pub type WordIndex<'a> = BTreeMap<&'a str, Vec<usize>>;

/// The words of `text`: its longest runs of letters and digits (`char::is_alphanumeric`), in
/// order, as slices of `text`. Case matters: "Rust" and "rust" are different words.
///
/// `words("Hello, GPU-world!")` yields "Hello", "GPU", "world".
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Whether `word` is one of the [`words`] of `text` (a whole word: "cat" is not in "category").
pub fn contains_word(text: &str, word: &str) -> bool {
    words(text).any(|w| w == word)
}

/// Why [`merge`] refused: the library is left unchanged.
#[derive(Debug, PartialEq, Eq)]
pub enum MergeError {
    /// `index` is not a position in the library, which holds `len` documents.
    NoSuchDocument { index: usize, len: usize },
    /// `from` and `into` are the same document.
    SameDocument { index: usize },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSuchDocument { index, len } => write!(
                f,
                "there is no document {index}: the library holds {len}, so use a position below {len}"
            ),
            Self::SameDocument { index } => write!(
                f,
                "cannot merge document {index} into itself: give two different positions"
            ),
        }
    }
}

impl std::error::Error for MergeError {}
