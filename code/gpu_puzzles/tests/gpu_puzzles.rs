//! Every reference solution passes on a real (software) adapter; every wrong solution fails,
//! the way its puzzle says, with a message that names the problem.

use gpu_context::GpuContext;
use gpu_puzzles::{Failure, Verdict, catalogue, run};

#[test]
fn gpu_every_reference_solution_passes() {
    let ctx = GpuContext::for_tests();
    for puzzle in catalogue::all() {
        let solution = puzzle
            .source("solution")
            .expect("the staff tree has every solution");
        let outcome = run(&ctx, &puzzle, &solution)
            .unwrap_or_else(|e| panic!("{}: the reference solution: {e}", puzzle.id));
        assert_eq!(
            outcome.verdict,
            Verdict::Pass,
            "{}: {}",
            puzzle.id,
            outcome.verdict
        );
        if let Some(limit) = puzzle.read_limit {
            assert!(outcome.reads.iter().all(|r| *r <= limit), "{}", puzzle.id);
        }
    }
}

#[test]
fn gpu_every_wrong_solution_fails_as_expected() {
    let ctx = GpuContext::for_tests();
    for puzzle in catalogue::all() {
        assert!(
            !puzzle.wrongs.is_empty(),
            "{} has no wrong solution",
            puzzle.id
        );
        for wrong in &puzzle.wrongs {
            let source = puzzle
                .source(wrong.name)
                .expect("the staff tree has every wrong solution");
            let outcome = run(&ctx, &puzzle, &source)
                .unwrap_or_else(|e| panic!("{}/{}: {e}", puzzle.id, wrong.name));
            let message = outcome.verdict.to_string();
            assert_eq!(
                outcome.verdict.failure(),
                Some(wrong.fails_by),
                "{}/{}: {message}",
                puzzle.id,
                wrong.name
            );
            let expected_words = match wrong.fails_by {
                Failure::Mismatch => "differ from the CPU reference",
                Failure::Reads => "read global memory",
            };
            assert!(message.contains(expected_words), "{message}");
        }
    }
}

#[test]
fn gpu_every_stub_compiles_and_fails() {
    let ctx = GpuContext::for_tests();
    for puzzle in catalogue::all() {
        let outcome = run(&ctx, &puzzle, puzzle.stub)
            .unwrap_or_else(|e| panic!("{}: the stub: {e}", puzzle.id));
        assert_eq!(
            outcome.verdict.failure(),
            Some(Failure::Mismatch),
            "{}",
            puzzle.id
        );
    }
}

#[test]
fn gpu_a_compile_error_names_its_line() {
    let ctx = GpuContext::for_tests();
    let puzzle = catalogue::by_id("map").expect("map exists");
    let broken = "fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {\n    out[global.x] = a(global.x) + ;\n}\n";
    let err = run(&ctx, &puzzle, broken).expect_err("a syntax error does not compile");
    let text = err.to_string();
    assert!(
        text.contains("does not compile") && text.contains(":2:"),
        "{text}"
    );
}

#[test]
fn gpu_reading_the_hidden_buffers_is_refused() {
    let ctx = GpuContext::for_tests();
    let puzzle = catalogue::by_id("map").expect("map exists");
    let sneaky = "fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {\n    out[global.x] = hidden_a[global.x] + 10.0;\n}\n";
    let err = run(&ctx, &puzzle, sneaky).expect_err("the hidden buffer is off limits");
    assert!(err.to_string().contains("accessors"), "{err}");
}

/// Not a GPU test, but it reads the staff's files (solutions), so it lives beside those that do.
#[test]
fn browser_checks_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/browser_checks.json");
    let fresh = gpu_puzzles::export::browser_checks_json(&catalogue::all())
        .expect("the staff tree has every solution");
    assert_eq!(
        std::fs::read_to_string(path).unwrap_or_default(),
        fresh,
        "{path} is stale: run `cargo run -p gpu_puzzles --bin export_puzzles`"
    );
}

/// The published pages give the stub, the hint and the lesson, never an answer: no statement
/// of a reference solution appears in the page data or the pages' text (the signature and
/// declarations aside).
#[test]
fn no_solution_line_reaches_the_page_data() {
    let pages = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../book/m0_introduction/gpu_puzzles"
    );
    let prose: String = std::fs::read_dir(pages)
        .expect("the book's puzzle pages")
        .map(|entry| std::fs::read_to_string(entry.expect("a page").path()).expect("a page"))
        .collect();
    for puzzle in catalogue::all() {
        let page = gpu_puzzles::export::page_json(&puzzle, None) + &prose;
        let solution = puzzle
            .source("solution")
            .expect("the staff tree has every solution");
        for line in solution.lines().map(str::trim) {
            let given = line.len() < 12
                || line.starts_with("fn puzzle(")
                || line.starts_with("var<workgroup>")
                || line.starts_with("//");
            assert!(
                given || !page.contains(line),
                "{}: the page data gives away `{line}`",
                puzzle.id
            );
        }
    }
}
