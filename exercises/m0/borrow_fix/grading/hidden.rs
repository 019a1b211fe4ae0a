//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m0_borrow_fix::{
    Document, MergeError, WordIndex, add_and_index, merge, remove_containing, snippet,
};

/// Whether `part` is a slice of `whole`'s memory (not a copy of the same text).
fn inside(part: &str, whole: &str) -> bool {
    let (p, w) = (part.as_ptr() as usize, whole.as_ptr() as usize);
    p >= w && p + part.len() <= w + whole.len()
}

/// Where each title's and body's text lives, to check that documents move and are not copied.
fn buffers(docs: &[Document]) -> Vec<(String, *const u8, *const u8)> {
    docs.iter()
        .map(|d| (d.title.clone(), d.title.as_ptr(), d.body.as_ptr()))
        .collect()
}

fn titles(docs: &[Document]) -> Vec<&str> {
    docs.iter().map(|d| d.title.as_str()).collect()
}

/// The reference index, built by brute force: for every word, scan every document.
fn reference_index(docs: &[Document]) -> Vec<(String, Vec<usize>)> {
    let mut all: Vec<String> = docs
        .iter()
        .flat_map(|d| ex_m0_borrow_fix::words(&d.body).map(String::from))
        .collect();
    all.sort();
    all.dedup();
    all.into_iter()
        .map(|w| {
            let found = (0..docs.len())
                .filter(|&i| ex_m0_borrow_fix::contains_word(&docs[i].body, &w))
                .collect();
            (w, found)
        })
        .collect()
}

fn as_owned(index: &WordIndex<'_>) -> Vec<(String, Vec<usize>)> {
    index
        .iter()
        .map(|(w, found)| (w.to_string(), found.clone()))
        .collect()
}

fn library() -> Vec<Document> {
    vec![
        Document::new("alpha", "Rust rust RUST, rust!\n\tmemory safety"),
        Document::new("beta", ""),
        Document::new("gamma", "GPU-side memory; the GPU waits for the CPU."),
        Document::new("delta", "   \n\n  "),
    ]
}

#[test]
fn borrow_fix_hidden_index_lists_each_document_once() {
    let mut docs = library();
    let new = vec![
        Document::new("epsilon", "memory, memory and more memory: 42 bytes"),
        Document::new("zeta", "rust never sleeps"),
    ];
    let index = add_and_index(&mut docs, new);
    assert_eq!(index["rust"], [0, 5]);
    assert_eq!(index["Rust"], [0], "case matters");
    assert_eq!(index["memory"], [0, 2, 4]);
    assert_eq!(index["GPU"], [2]);
    assert_eq!(index["42"], [4]);
    let got = as_owned(&index);
    grade_record!("index", (&got, titles(&docs)), 0.0);
    assert_eq!(
        titles(&docs),
        ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    );
    assert_eq!(got, reference_index(&docs));

    let mut empty: Vec<Document> = Vec::new();
    assert!(add_and_index(&mut empty, Vec::new()).is_empty());
    let mut only_new: Vec<Document> = Vec::new();
    let index = add_and_index(&mut only_new, library());
    let got = as_owned(&index);
    grade_record!("index_only_new", &got, 0.0);
    assert_eq!(got, reference_index(&only_new));
    let mut no_new = library();
    let index = add_and_index(&mut no_new, Vec::new());
    let got = as_owned(&index);
    grade_record!("index_no_new", (&got, &no_new), 0.0);
    assert_eq!(got, reference_index(&no_new));
    assert_eq!(no_new, library());
    grade_ok!("borrow_fix_hidden_index_lists_each_document_once");
}

#[test]
fn borrow_fix_hidden_index_copies_no_text() {
    let mut docs = library();
    let new = vec![
        Document::new("epsilon", "a long body, moved and never copied"),
        Document::new("zeta", "another body"),
    ];
    let before = buffers(&new);
    let index = add_and_index(&mut docs, new);
    // Where each key's text lives; the index keeps `docs` borrowed, so it goes before `docs` is
    // read again (the bodies stay where they are).
    let keys: Vec<(String, usize, usize)> = index
        .keys()
        .map(|w| (w.to_string(), w.as_ptr() as usize, w.len()))
        .collect();
    assert!(keys.len() > 10);
    for (word, at, len) in keys {
        let is_slice = docs.iter().any(|d| {
            let start = d.body.as_ptr() as usize;
            at >= start && at + len <= start + d.body.len()
        });
        assert!(
            is_slice,
            "the key {word:?} is a copy, not a slice of a body"
        );
    }
    assert_eq!(buffers(&docs[4..]), before, "the new documents were copied");
    grade_ok!("borrow_fix_hidden_index_copies_no_text");
}

#[test]
fn borrow_fix_hidden_merge_appends_after_a_newline() {
    let mut docs = library();
    merge(&mut docs, 2, 0).unwrap();
    grade_record!("after_merge", (&docs, docs[2].body.capacity()), 0.0);
    assert_eq!(
        docs[0].body,
        "Rust rust RUST, rust!\n\tmemory safety\nGPU-side memory; the GPU waits for the CPU."
    );
    assert_eq!(docs[2].title, "gamma");
    assert_eq!(docs[2].body, "");
    assert_eq!(
        docs[2].body.capacity(),
        0,
        "the moved-from body still holds memory"
    );
    merge(&mut docs, 0, 3).unwrap();
    grade_record!("after_merge", (&docs, docs[0].body.capacity()), 0.0);
    assert!(docs[3].body.starts_with("   \n\n  \nRust rust"));
    assert_eq!(docs[0].body.capacity(), 0);
    merge(&mut docs, 1, 3).unwrap();
    grade_record!("after_merge", &docs, 0.0);
    assert!(
        docs[3].body.ends_with("the CPU.\n"),
        "an empty body still adds a newline"
    );
    merge(&mut docs, 3, 1).unwrap();
    grade_record!("after_merge", &docs, 0.0);
    assert!(docs[1].body.starts_with("\n   \n"), "into an empty body");
    assert_eq!(titles(&docs), ["alpha", "beta", "gamma", "delta"]);
    grade_ok!("borrow_fix_hidden_merge_appends_after_a_newline");
}

#[test]
fn borrow_fix_hidden_merge_rejects_bad_positions() {
    let mut docs = library();
    for (from, into, want) in [
        (1, 1, MergeError::SameDocument { index: 1 }),
        (4, 0, MergeError::NoSuchDocument { index: 4, len: 4 }),
        (0, 9, MergeError::NoSuchDocument { index: 9, len: 4 }),
        (7, 7, MergeError::NoSuchDocument { index: 7, len: 4 }),
        (
            usize::MAX,
            2,
            MergeError::NoSuchDocument {
                index: usize::MAX,
                len: 4,
            },
        ),
    ] {
        grade_record!("refused", (merge(&mut docs, from, into), &docs), 0.0);
        assert_eq!(
            merge(&mut docs, from, into),
            Err(want),
            "merge({from}, {into})"
        );
        assert_eq!(docs, library(), "a refused merge changed the library");
    }
    let mut none: Vec<Document> = Vec::new();
    grade_record!("refused_empty", merge(&mut none, 0, 0), 0.0);
    assert_eq!(
        merge(&mut none, 0, 0),
        Err(MergeError::NoSuchDocument { index: 0, len: 0 })
    );
    grade_ok!("borrow_fix_hidden_merge_rejects_bad_positions");
}

#[test]
fn borrow_fix_hidden_snippet_finds_the_first_whole_word() {
    let doc = Document::new(
        "notes",
        "categories of ships\r\n\t  a cat on board \t\r\nthe cat again\nCAT\n",
    );
    for word in ["cat", "CAT", "categories", "again", "dog", "ship"] {
        grade_record!("snippet", snippet(&doc, word), 0.0);
    }
    grade_record!("snippet", snippet(&Document::new("empty", ""), "cat"), 0.0);
    assert_eq!(snippet(&doc, "cat"), Some("a cat on board"));
    assert_eq!(snippet(&doc, "CAT"), Some("CAT"));
    assert_eq!(snippet(&doc, "categories"), Some("categories of ships"));
    assert_eq!(snippet(&doc, "again"), Some("the cat again"));
    assert_eq!(snippet(&doc, "dog"), None);
    assert_eq!(snippet(&doc, "ship"), None, "\"ships\" is not \"ship\"");
    assert_eq!(snippet(&Document::new("empty", ""), "cat"), None);
    let one_line = Document::new("one", "no newline at the end");
    assert_eq!(snippet(&one_line, "end"), Some("no newline at the end"));
    grade_ok!("borrow_fix_hidden_snippet_finds_the_first_whole_word");
}

#[test]
fn borrow_fix_hidden_snippet_points_into_the_body() {
    let doc = Document::new("log", "  first line\n\tsecond: the warp core  \nthird");
    for word in ["first", "warp", "third"] {
        let line = snippet(&doc, word).unwrap();
        // Where the line starts in the body: the same number for every slice of it.
        let offset = (line.as_ptr() as usize).wrapping_sub(doc.body.as_ptr() as usize);
        grade_record!("slice", (line, offset), 0.0);
        assert!(
            inside(line, &doc.body),
            "{line:?} is a copy, not a slice of the body"
        );
    }
    grade_ok!("borrow_fix_hidden_snippet_points_into_the_body");
}

#[test]
fn borrow_fix_hidden_remove_containing_keeps_both_orders() {
    let mut docs = library();
    docs.push(Document::new("eta", "the GPU"));
    let removed = remove_containing(&mut docs, "GPU");
    grade_record!("removed", (titles(&removed), titles(&docs)), 0.0);
    assert_eq!(titles(&removed), ["gamma", "eta"]);
    assert_eq!(titles(&docs), ["alpha", "beta", "delta"]);
    assert!(remove_containing(&mut docs, "GPU").is_empty());
    assert_eq!(titles(&docs), ["alpha", "beta", "delta"]);
    let removed = remove_containing(&mut docs, "rust");
    grade_record!("removed", (titles(&removed), titles(&docs)), 0.0);
    assert_eq!(titles(&removed), ["alpha"]);
    assert_eq!(titles(&docs), ["beta", "delta"]);
    let mut empty: Vec<Document> = Vec::new();
    assert!(remove_containing(&mut empty, "rust").is_empty());
    let mut all = vec![Document::new("x", "a"), Document::new("y", "a b")];
    assert_eq!(titles(&remove_containing(&mut all, "a")), ["x", "y"]);
    assert!(all.is_empty());
    grade_ok!("borrow_fix_hidden_remove_containing_keeps_both_orders");
}

#[test]
fn borrow_fix_hidden_remove_containing_moves_documents() {
    let mut docs = library();
    let before = buffers(&docs);
    let removed = remove_containing(&mut docs, "memory");
    let mut after = buffers(&removed);
    after.extend(buffers(&docs));
    let mut want = vec![before[0].clone(), before[2].clone()];
    want.extend([before[1].clone(), before[3].clone()]);
    assert_eq!(after, want, "a title or body was copied instead of moved");
    grade_ok!("borrow_fix_hidden_remove_containing_moves_documents");
}
