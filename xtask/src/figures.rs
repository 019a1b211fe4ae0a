//! `cargo xtask figures [ARGS…]`: runs every figure program — each binary whose name ends in
//! `_figures` in a crate under `code/` — in release mode from the repository root. Extra
//! arguments (e.g. `--quick`) are passed to every program.

use crate::util::{self, code_packages, run_step};

pub fn run(args: &[String]) -> Result<(), String> {
    let programs = figure_programs();
    if programs.is_empty() {
        return Err("no figure programs found (binaries named `*_figures` under code/)".into());
    }
    for (package, bin) in &programs {
        let mut cmd = util::cargo();
        cmd.args(["run", "--release", "-p", package, "--bin", bin, "--"])
            .args(args);
        run_step(
            &mut cmd,
            &format!("figures from {package}::{bin}"),
            "Its message above says what went wrong.",
        )?;
    }
    eprintln!(
        "\n{} figure program(s) ran; review `git status figures/` and commit the results.",
        programs.len()
    );
    Ok(())
}

/// (package, binary) for every `src/bin/*_figures.rs` or `[[bin]] name = "*_figures"`.
pub fn figure_programs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (package, dir) in code_packages() {
        let mut bins = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir.join("src/bin")) {
            for entry in entries.flatten() {
                let path = entry.path();
                let stem = if path.is_dir() {
                    path.join("main.rs")
                        .is_file()
                        .then(|| entry.file_name().to_string_lossy().into_owned())
                } else {
                    path.extension().is_some_and(|e| e == "rs").then(|| {
                        path.file_stem()
                            .map(|s| s.to_string_lossy().into_owned())
                            .unwrap_or_default()
                    })
                };
                bins.extend(stem.filter(|s| s.ends_with("_figures")));
            }
        }
        if let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) {
            let mut in_bin = false;
            for line in manifest.lines().map(str::trim) {
                if line.starts_with('[') {
                    in_bin = line == "[[bin]]";
                } else if in_bin
                    && let Some((k, v)) = line.split_once('=')
                    && k.trim() == "name"
                    && v.trim().trim_matches('"').ends_with("_figures")
                {
                    bins.push(v.trim().trim_matches('"').to_owned());
                }
            }
        }
        bins.sort();
        bins.dedup();
        out.extend(bins.into_iter().map(|b| (package.clone(), b)));
    }
    out
}
