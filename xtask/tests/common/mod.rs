//! Shared by xtask's test files (each test binary uses its own part).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

/// A finished command's stdout and stderr, as one text to search.
pub fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The workspace's own packages, read with `cargo metadata`.
pub fn workspace_packages() -> Vec<cargo_metadata::Package> {
    let metadata = cargo_metadata::MetadataCommand::new()
        .current_dir(xtask::util::root())
        .no_deps()
        .exec()
        .expect("cargo metadata");
    metadata.workspace_packages().into_iter().cloned().collect()
}

/// The files with extension `ext` under `dir`, leaving out build output (`target`, `build`,
/// `node_modules`) and every folder below `dir` that holds a package of its own.
pub fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|entry| {
            let name = entry.file_name();
            entry.depth() == 0
                || !entry.file_type().is_dir()
                || !(name == "target"
                    || name == "build"
                    || name == "node_modules"
                    || entry.path().join("Cargo.toml").is_file())
        })
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .collect()
}
