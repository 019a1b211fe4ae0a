//! No crate includes a file from another crate's `src/` by a relative path
//! (`include_str!("../../other/src/kernel.wgsl")`): cargo cannot see such a dependency, and the
//! two crates' files become one unit nobody declared. The owner exports a constant instead
//! (`parallelism::HISTOGRAM_WGSL`, `first_gpu_program::SHADER`).
//!
//! The test reads every `.rs` file of every workspace package, resolves each `include_str!` and
//! `include_bytes!` of a literal path from the including file's folder, and fails when the file
//! lies in the `src/` folder of a package other than the includer's.

mod common;

use std::path::{Path, PathBuf};

/// The literal paths of the `include_str!("…")` and `include_bytes!("…")` calls in `text`.
fn included_paths(text: &str) -> Vec<&str> {
    let mut paths = Vec::new();
    for call in ["include_str!(\"", "include_bytes!(\""] {
        for (at, _) in text.match_indices(call) {
            let rest = &text[at + call.len()..];
            if let Some(end) = rest.find('"') {
                paths.push(&rest[..end]);
            }
        }
    }
    paths
}

/// The folder of the package that owns `file`: its nearest ancestor with a `Cargo.toml`.
fn owning_package(file: &Path) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .find(|dir| dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

#[test]
fn no_crate_includes_another_crates_sources() {
    let mut reaches = Vec::new();
    for package in common::workspace_packages() {
        let dir = package
            .manifest_path
            .parent()
            .expect("a manifest has a folder")
            .as_std_path()
            .to_path_buf();
        for file in common::files_under(&dir, "rs") {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let Some(includer) = owning_package(&file).and_then(|d| d.canonicalize().ok()) else {
                continue;
            };
            for included in included_paths(&text) {
                let Some(folder) = file.parent() else {
                    continue;
                };
                let Ok(target) = folder.join(included).canonicalize() else {
                    continue;
                };
                let Some(owner) = owning_package(&target) else {
                    continue;
                };
                if owner != includer && target.starts_with(owner.join("src")) {
                    reaches.push(format!("{}: {included}", file.display()));
                }
            }
        }
    }
    assert!(
        reaches.is_empty(),
        "files included from another crate's src/ (export a constant from the owning crate and \
         use it instead):\n{}",
        reaches.join("\n")
    );
}

#[test]
fn the_check_sees_an_include_of_a_literal_path() {
    let text = r#"pub const S: &str = include_str!("../../other/src/k.wgsl");
const B: &[u8] = include_bytes!("data.bin");"#;
    assert_eq!(included_paths(text), ["../../other/src/k.wgsl", "data.bin"]);
}
