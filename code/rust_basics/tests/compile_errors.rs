//! The book shows the compiler's errors with `compile_fail` doctests, which on a stable toolchain
//! check only *that* a block fails, not *why*. This test compiles each example in
//! `compile_errors/` with the pinned `rustc` and checks that it fails with the error code the
//! book names, so a block that starts failing for another reason (a typo) is caught.

use std::path::Path;
use std::process::Command;

/// (file in `compile_errors/`, the error code it must produce, a phrase of the message).
const CASES: &[(&str, &str, &str)] = &[
    (
        "e0502_push_while_borrowed.rs",
        "E0502",
        "also borrowed as immutable",
    ),
    (
        "e0499_two_mutable_borrows.rs",
        "E0499",
        "more than once at a time",
    ),
    ("e0382_use_after_move.rs", "E0382", "moved value"),
    (
        "e0597_borrow_outlives_owner.rs",
        "E0597",
        "does not live long enough",
    ),
    (
        "e0204_copy_with_heap_buffer.rs",
        "E0204",
        "cannot be implemented",
    ),
    ("e0004_missing_match_arm.rs", "E0004", "not covered"),
    ("e0277_missing_trait_bound.rs", "E0277", "compare"),
    ("e0373_thread_borrows_local.rs", "E0373", "may outlive"),
];

fn first_error(file: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().expect("a temporary directory");
    // `rustc` through rustup picks the toolchain pinned in rust-toolchain.toml.
    let output = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .current_dir(dir)
        .args([
            "--edition",
            "2024",
            "--emit=metadata",
            "--crate-type=bin",
            "-o",
        ])
        .arg(out.path().join("example.rmeta"))
        .arg(Path::new("compile_errors").join(file))
        .output()
        .expect("rustc can be run (it is on PATH wherever cargo is)");
    assert!(
        !output.status.success(),
        "{file} compiled, but the book says it fails"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .find(|l| l.starts_with("error["))
        .unwrap_or_else(|| panic!("{file}: no error code in\n{stderr}"))
        .to_owned()
}

#[test]
fn every_example_fails_with_the_error_the_book_names() {
    for (file, code, phrase) in CASES {
        let error = first_error(file);
        assert!(
            error.starts_with(&format!("error[{code}]")) && error.contains(phrase),
            "{file}: expected {code} ({phrase}), got: {error}"
        );
    }
}

#[test]
fn every_example_file_is_checked() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("compile_errors");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("compile_errors/ exists")
        .map(|e| {
            e.expect("a readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| c.0.to_owned()).collect();
    listed.sort();
    assert_eq!(files, listed, "list every file of compile_errors/ in CASES");
}
