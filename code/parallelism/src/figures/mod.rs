//! The measurements behind this crate's figures. Each figure is a function that measures,
//! then writes `figures/parallel_<name>.{csv,svg,json}`.

mod concurrency;
mod data;
mod output;

use output::Figure;

/// Every figure, in the order they run.
pub const NAMES: &[&str] = &[
    "spsc",
    "false_sharing",
    "histogram",
    "rayon_chunks",
    "branchless",
    "simd",
    "sort",
    "csr_vs_dense",
    "async",
    "aos_soa",
    "bump",
    "softmax",
];

/// Runs every figure, or only those named after `--only`.
pub fn run(args: &[String]) -> Result<(), String> {
    let only: Vec<&str> = match args {
        [] => NAMES.to_vec(),
        [flag, rest @ ..] if flag == "--only" && !rest.is_empty() => {
            rest.iter().map(String::as_str).collect()
        }
        _ => {
            return Err(format!(
                "usage: parallelism_figures [--only NAME...], with NAME among {NAMES:?}"
            ));
        }
    };
    if let Some(bad) = only.iter().find(|n| !NAMES.contains(n)) {
        return Err(format!("no figure named {bad:?}: pick from {NAMES:?}"));
    }
    let progress = bench_harness::Progress::new(only.len() as u64, "parallelism figures");
    for name in only {
        progress.step(name);
        let figure: Figure = match name {
            "spsc" => concurrency::spsc(),
            "false_sharing" => concurrency::false_sharing(),
            "histogram" => concurrency::histogram(),
            "async" => concurrency::async_contrast(),
            "rayon_chunks" => data::rayon_chunks(),
            "branchless" => data::branchless(),
            "simd" => data::simd(),
            "sort" => data::sort(),
            "csr_vs_dense" => data::csr_vs_dense(),
            "aos_soa" => data::aos_soa(),
            "bump" => data::bump(),
            "softmax" => data::softmax(),
            _ => unreachable!("names were checked above"),
        };
        figure
            .write()
            .map_err(|e| format!("writing figure {name}: {e}"))?;
    }
    progress.finish();
    Ok(())
}
