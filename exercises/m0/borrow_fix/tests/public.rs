//! Public tests: `cargo nextest run -p ex_m0_borrow_fix`.

use ex_m0_borrow_fix::{Document, add_and_index, merge, remove_containing, snippet};

fn titles(docs: &[Document]) -> Vec<&str> {
    docs.iter().map(|d| d.title.as_str()).collect()
}

#[test]
fn borrow_fix_public_index_of_a_small_library() {
    let mut docs = vec![
        Document::new("ships", "The ship has a warp drive."),
        Document::new("stars", "A star is hot."),
    ];
    let new = vec![Document::new("drives", "Every drive is a warp drive!")];
    let index = add_and_index(&mut docs, new);
    assert_eq!(index["warp"], [0, 2]);
    assert_eq!(
        index["drive"],
        [0, 2],
        "each document once, even with a repeat"
    );
    assert_eq!(index["star"], [1]);
    assert!(!index.contains_key("The ship"), "words only, no spaces");
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[2].title, "drives");
}

#[test]
fn borrow_fix_public_merge_and_snippet() {
    let mut docs = vec![
        Document::new("log 1", "  engines on\n  course set  "),
        Document::new("log 2", "landing"),
    ];
    merge(&mut docs, 0, 1).unwrap();
    assert_eq!(docs[1].body, "landing\n  engines on\n  course set  ");
    assert_eq!(docs[0].title, "log 1");
    assert_eq!(docs[0].body, "");
    assert!(merge(&mut docs, 1, 1).is_err(), "a document into itself");
    assert!(merge(&mut docs, 0, 7).is_err(), "a position past the end");
    assert_eq!(snippet(&docs[1], "course"), Some("course set"));
    assert_eq!(snippet(&docs[1], "cour"), None, "whole words only");
}

#[test]
fn borrow_fix_public_remove_containing() {
    let mut docs = vec![
        Document::new("a", "red giant"),
        Document::new("b", "white dwarf"),
        Document::new("c", "red dwarf"),
    ];
    let removed = remove_containing(&mut docs, "red");
    assert_eq!(titles(&removed), ["a", "c"]);
    assert_eq!(titles(&docs), ["b"]);
}
