//! The JSON the book's pages embed is what the catalogue says now, and carries no solution.

use gpu_puzzles::{catalogue, export};

#[test]
fn book_data_is_current_and_has_no_solutions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/book_data");
    let all = catalogue::all();
    assert!(all.len() >= 14);
    for puzzle in &all {
        let path = format!("{dir}/{}.json", puzzle.id);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            on_disk,
            export::page_json(puzzle, None),
            "{path} is stale or has solutions: run `cargo run -p gpu_puzzles --bin export_puzzles`"
        );
        assert!(!on_disk.contains("\"solution\""), "{path}");
    }
}

#[test]
fn puzzles_rise_in_difficulty_with_unique_ids() {
    let ids: Vec<_> = catalogue::all().iter().map(|p| p.id).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    assert_eq!(ids.first(), Some(&"map"));
}
