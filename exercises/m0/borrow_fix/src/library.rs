//! Your file. Each function's first version, in the README, does not compile; write one that
//! does, and does what its comment says, without copying titles or bodies (no `.clone()`).

use crate::{Document, MergeError, WordIndex};

/// Adds the `new` documents at the end of `docs`, then returns the index of the whole library:
/// every word of every body → the positions of the documents that contain it (increasing, each
/// once). The keys borrow from the bodies in `docs`.
pub fn add_and_index(_docs: &mut Vec<Document>, _new: Vec<Document>) -> WordIndex<'_> {
    todo!("add the new documents first, then index every document")
}

/// Moves the body of `docs[from]` to the end of the body of `docs[into]`, after a newline
/// (`"a"` and `"b"` give `"a\nb"`). `docs[from]` keeps its title; its body becomes
/// `String::new()`, which holds no memory. A position out of range (`from` checked first) is
/// `MergeError::NoSuchDocument`; `from == into` is `MergeError::SameDocument`; either way `docs`
/// is left unchanged.
pub fn merge(_docs: &mut [Document], _from: usize, _into: usize) -> Result<(), MergeError> {
    todo!("check the positions, then change two documents of one slice")
}

/// The first line of `doc.body` that contains `word` as a whole word (see `contains_word`),
/// without its leading and trailing whitespace, or `None` if no line does. The line is a slice
/// of `doc.body`.
pub fn snippet<'a>(_doc: &'a Document, _word: &str) -> Option<&'a str> {
    todo!("find the line in doc.body itself, not in a copy of it")
}

/// Moves every document whose body contains `word` as a whole word out of `docs` and returns
/// them. Both the removed documents and the ones left in `docs` keep their order.
pub fn remove_containing(_docs: &mut Vec<Document>, _word: &str) -> Vec<Document> {
    todo!("take the documents out of the Vec by value, then sort them into two Vecs")
}
