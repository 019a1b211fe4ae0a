//! What the workspace holds, from `cargo metadata`: packages, their targets, figure programs.

use std::path::PathBuf;

use anyhow::Context;
use cargo_metadata::{Metadata, MetadataCommand, TargetKind};

use crate::util::root;

fn metadata() -> anyhow::Result<Metadata> {
    MetadataCommand::new()
        .current_dir(root())
        .no_deps()
        .exec()
        .context("`cargo metadata` failed")
}

/// Packages with an integration test target of this name (e.g. `loom`).
pub fn packages_with_test(test: &str) -> anyhow::Result<Vec<String>> {
    let meta = metadata()?;
    let mut names: Vec<String> = meta
        .workspace_packages()
        .into_iter()
        .filter(|p| {
            p.targets
                .iter()
                .any(|t| t.name == test && t.kind.contains(&TargetKind::Test))
        })
        .map(|p| p.name.to_string())
        .collect();
    names.sort();
    Ok(names)
}

/// A binary or example whose name ends in `_figures`.
#[derive(Debug, Clone)]
pub struct FigureProgram {
    pub package: String,
    pub bin: String,
    /// An example (`cargo run --example`) rather than a binary (`--bin`).
    pub example: bool,
    /// Its main source file, repository-relative.
    pub source: PathBuf,
}

pub fn figure_programs() -> anyhow::Result<Vec<FigureProgram>> {
    let meta = metadata()?;
    let mut programs = Vec::new();
    for package in meta.workspace_packages() {
        for target in &package.targets {
            let example = target.kind.contains(&TargetKind::Example);
            if (example || target.kind.contains(&TargetKind::Bin))
                && target.name.ends_with("_figures")
            {
                let source = target
                    .src_path
                    .as_std_path()
                    .strip_prefix(meta.workspace_root.as_std_path())
                    .unwrap_or(target.src_path.as_std_path())
                    .to_path_buf();
                programs.push(FigureProgram {
                    package: package.name.to_string(),
                    bin: target.name.clone(),
                    example,
                    source,
                });
            }
        }
    }
    programs.sort_by(|a, b| (&a.package, &a.bin).cmp(&(&b.package, &b.bin)));
    Ok(programs)
}
