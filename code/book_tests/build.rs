//! Turns each chapter that `mdbook build` wrote with includes expanded (the markdown renderer's
//! output) into a doc comment on an empty struct, so `cargo test --doc -p book_tests` compiles
//! and runs every Rust block of the book with the workspace's crates available.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    println!("cargo:rerun-if-env-changed=BOOK_MARKDOWN_DIR");
    let dir = match env::var_os("BOOK_MARKDOWN_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../book/build/markdown"),
    };
    println!("cargo:rerun-if-changed={}", dir.display());

    let mut chapters = markdown_files(&dir);
    chapters.sort();

    let mut out = String::new();
    if chapters.is_empty() {
        // Only doctests need the chapters; a normal build of the workspace must not fail here.
        let _ = writeln!(
            out,
            "#[cfg(doctest)] compile_error!(\"no expanded chapters in {}: run `cargo xtask book` first\");",
            dir.display().to_string().replace('\\', "/")
        );
    }
    for path in &chapters {
        let relative = path.strip_prefix(&dir).unwrap_or(path);
        let name: String = relative
            .with_extension("")
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let _ = writeln!(
            out,
            "#[cfg(doctest)]\n#[allow(non_camel_case_types)]\n#[doc = include_str!({:?})]\npub struct Chapter_{name};",
            path.canonicalize().unwrap_or_else(|_| path.clone())
        );
    }
    let target =
        PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("chapters.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}

/// The `.md` files under `dir`, following links to folders; unreadable folders are skipped
/// (no markdown yet means no chapters).
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .follow_links(true)
        .into_iter()
        .flatten()
        .filter(|e| !e.file_type().is_dir() && e.path().extension().is_some_and(|x| x == "md"))
        .map(walkdir::DirEntry::into_path)
        .collect()
}
