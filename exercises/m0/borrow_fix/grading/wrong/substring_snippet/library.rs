//! Your file. Each function's first version, in the README, does not compile; write one that
//! does, and does what its comment says, without copying titles or bodies (no `.clone()`).

use crate::{Document, MergeError, WordIndex, contains_word, words};

/// Adds the `new` documents at the end of `docs`, then returns the index of the whole library:
/// every word of every body → the positions of the documents that contain it (increasing, each
/// once). The keys borrow from the bodies in `docs`.
pub fn add_and_index(docs: &mut Vec<Document>, new: Vec<Document>) -> WordIndex<'_> {
    // Every push happens before the first borrow of a body: once the index holds slices of the
    // bodies, the Vec may not move its elements any more.
    docs.extend(new);
    let mut index = WordIndex::new();
    for (position, doc) in docs.iter().enumerate() {
        for word in words(&doc.body) {
            let found_in = index.entry(word).or_default();
            // Positions arrive in increasing order, so a repeat can only be the last one.
            if found_in.last() != Some(&position) {
                found_in.push(position);
            }
        }
    }
    index
}

/// Moves the body of `docs[from]` to the end of the body of `docs[into]`, after a newline
/// (`"a"` and `"b"` give `"a\nb"`). `docs[from]` keeps its title; its body becomes
/// `String::new()`, which holds no memory. A position out of range (`from` checked first) is
/// `MergeError::NoSuchDocument`; `from == into` is `MergeError::SameDocument`; either way `docs`
/// is left unchanged.
pub fn merge(docs: &mut [Document], from: usize, into: usize) -> Result<(), MergeError> {
    let len = docs.len();
    for index in [from, into] {
        if index >= len {
            return Err(MergeError::NoSuchDocument { index, len });
        }
    }
    if from == into {
        return Err(MergeError::SameDocument { index: from });
    }
    // Taking the body out ends the borrow of docs[from] before docs[into] is borrowed: one
    // mutable borrow at a time, and the text is moved, not copied.
    let moved = std::mem::take(&mut docs[from].body);
    let target = &mut docs[into].body;
    target.push('\n');
    target.push_str(&moved);
    Ok(())
}

/// The first line of `doc.body` that contains `word` as a whole word (see `contains_word`),
/// without its leading and trailing whitespace, or `None` if no line does. The line is a slice
/// of `doc.body`.
pub fn snippet<'a>(doc: &'a Document, word: &str) -> Option<&'a str> {
    doc.body
        .lines()
        // Wrong on purpose: a substring, not a whole word ("ship" is found in "ships").
        .find(|line| line.contains(word))
        .map(str::trim)
}

/// Moves every document whose body contains `word` as a whole word out of `docs` and returns
/// them. Both the removed documents and the ones left in `docs` keep their order.
pub fn remove_containing(docs: &mut Vec<Document>, word: &str) -> Vec<Document> {
    // Owning the documents (the Vec is swapped for an empty one) is what allows moving them.
    let (removed, kept): (Vec<Document>, Vec<Document>) = std::mem::take(docs)
        .into_iter()
        .partition(|doc| contains_word(&doc.body, word));
    *docs = kept;
    removed
}
