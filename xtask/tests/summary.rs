//! The table-of-contents check against mdBook's nesting rule, and on the book's own SUMMARY.md.

use xtask::summary::check;

const NESTED: &str = "# Summary\n\n[Intro](README.md)\n\n# Module 3\n\n- [Module 3 overview](m3_x/README.md)\n  - [A](m3_x/a.md)\n    - [A1](m3_x/a1.md)\n\n  - [B](m3_x/b.md)\n\n# Module 4\n\n- [Module 4 overview](m4_y/README.md)\n\n---\n\n[For teachers](for_teachers.md)\n";

#[test]
fn nested_chapters_pass() {
    assert_eq!(check(NESTED), Vec::<String>::new());
}

#[test]
fn a_marker_at_column_0_pushes_the_next_chapter_out_of_its_module() {
    let broken = NESTED.replace(
        "\n\n  - [B]",
        "\n<!-- m3: add pages above this line -->\n  - [B]",
    );
    let problems = check(&broken);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("SUMMARY.md:10: `<!-- m3"),
        "{problems:?}"
    );
    assert!(
        problems[1].contains("SUMMARY.md:11: `m3_x/b.md` is not nested"),
        "{problems:?}"
    );
}

#[test]
fn an_indented_marker_is_refused_too() {
    let broken = NESTED.replace(
        "\n\n  - [B]",
        "\n  <!-- m3: add pages above this line -->\n  - [B]",
    );
    let problems = check(&broken);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("inside a list of chapters"),
        "{problems:?}"
    );
}

#[test]
fn a_chapter_under_another_module_or_at_top_level_fails() {
    let text = "- [M1](m1_a/README.md)\n  - [wrong](m2_b/x.md)\n- [top](m1_a/y.md)\n";
    let problems = check(text);
    assert_eq!(problems.len(), 2, "{problems:?}");
}

#[test]
fn the_books_summary_nests_every_chapter() {
    let summary = std::fs::read_to_string(xtask::util::root().join("book/SUMMARY.md")).unwrap();
    assert_eq!(check(&summary), Vec::<String>::new());
}
