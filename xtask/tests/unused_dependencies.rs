//! Every dependency a workspace crate declares is named somewhere in its Rust sources: a
//! dependency nobody uses still costs every student its download and its compile time.
//!
//! The test reads the workspace with `cargo_metadata` and looks for the dependency's crate name
//! (or its rename) as a word in the package's `.rs` files. `book_tests` is left out: its
//! dependencies are used by the book's listings, which it compiles as doctests.

use std::path::Path;

use cargo_metadata::{DependencyKind, MetadataCommand};

/// The text of every `.rs` file under `dir`, skipping build output.
fn rust_sources(dir: &Path, out: &mut String) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            out.push('\n');
        }
    }
}

/// Whether `name` appears in `text` as a whole identifier.
fn names(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[test]
fn every_declared_dependency_is_used() {
    let metadata = MetadataCommand::new()
        .current_dir(xtask::util::root())
        .no_deps()
        .exec()
        .expect("cargo metadata");
    let mut unused = Vec::new();
    for package in metadata.workspace_packages() {
        if package.name.as_str() == "book_tests" {
            continue;
        }
        let dir = package
            .manifest_path
            .parent()
            .expect("a manifest has a folder");
        let mut text = String::new();
        rust_sources(dir.as_std_path(), &mut text);
        for dep in &package.dependencies {
            if dep.kind == DependencyKind::Build {
                continue;
            }
            let name = dep.rename.as_deref().unwrap_or(&dep.name).replace('-', "_");
            if !names(&text, &name) {
                unused.push(format!("{}: {} ({:?})", package.name, dep.name, dep.kind));
            }
        }
    }
    assert!(
        unused.is_empty(),
        "dependencies declared but never named in the crate's sources (remove them from its \
         Cargo.toml, or use them):\n{}",
        unused.join("\n")
    );
}
