//! The JSON each puzzle page embeds (`book_data/<id>.json`): everything the page needs to run
//! and judge a reader's code, and no solution unless a teacher asks for one.

use serde::Serialize;

use crate::harness::harness;
use crate::puzzle::{Input, Output, Puzzle};

#[derive(Serialize)]
struct PageData<'a> {
    id: &'a str,
    title: &'a str,
    stub: &'a str,
    hint: &'a str,
    /// Appended after the reader's code.
    harness: String,
    /// Lines of the reader's code come first, so compiler line numbers need no shifting.
    workgroups: [u32; 2],
    threads: usize,
    inputs: &'a [Input],
    output: &'a Output,
    padded_len: usize,
    read_limit: Option<u32>,
    tolerance: f64,
    expected: Vec<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<&'a str>,
}

/// The page's JSON for `puzzle`; a `solution` makes a teacher's edition.
pub fn page_json(puzzle: &Puzzle, solution: Option<&str>) -> String {
    let data = PageData {
        id: puzzle.id,
        title: puzzle.title,
        stub: puzzle.stub,
        hint: puzzle.hint,
        harness: harness(puzzle),
        workgroups: puzzle.workgroups,
        threads: puzzle.total_threads(),
        inputs: &puzzle.inputs,
        output: &puzzle.output,
        padded_len: puzzle.padded_len(),
        read_limit: puzzle.read_limit,
        tolerance: puzzle.tolerance,
        expected: puzzle.expected_padded(),
        solution,
    };
    // One line: the page embeds it in a <script type="application/json"> element. `</` is
    // escaped so that no string can close that element.
    serde_json::to_string(&data)
        .expect("page data serialises (plain strings and numbers)")
        .replace("</", "<\\/")
        + "\n"
}

#[derive(Serialize)]
struct Checked<'a> {
    name: &'a str,
    source: String,
    fails_by: Option<crate::puzzle::Failure>,
}

#[derive(Serialize)]
struct BrowserCheck<'a> {
    id: &'a str,
    runs: Vec<Checked<'a>>,
}

/// What the browser test types into each puzzle and what it must see: the reference solution
/// passes (`fails_by: null`), each wrong solution fails the way the catalogue says. Kept out of
/// the book (`browser_checks.json` beside the crate, read by xtask/browser/puzzle_test.mjs).
pub fn browser_checks_json(puzzles: &[Puzzle]) -> std::io::Result<String> {
    let mut checks = Vec::new();
    for p in puzzles {
        let mut runs = vec![Checked {
            name: "solution",
            source: p.source("solution")?,
            fails_by: None,
        }];
        for w in &p.wrongs {
            runs.push(Checked {
                name: w.name,
                source: p.source(w.name)?,
                fails_by: Some(w.fails_by),
            });
        }
        checks.push(BrowserCheck { id: p.id, runs });
    }
    Ok(serde_json::to_string_pretty(&checks).expect("checks serialise") + "\n")
}
