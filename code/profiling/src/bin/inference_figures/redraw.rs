//! `--redraw`: every chart of this program drawn again from the tables in the output folder, by
//! the same chart code the measuring parts use; nothing is measured and no adapter is opened.

use anyhow::bail;
use bench_harness::{Drawn, Found};

use crate::args::{Args, PARTS};
use crate::{latency, stages, steps};

const SOURCE: &str = "code/profiling/src/bin/inference_figures/";

/// The part that wrote `found`, by the figure's name (`infer[_machine]_{part}[_suffix]`): the
/// sidecars name the program's `main.rs`, not the part's file.
fn part_of(found: &Found) -> Option<&'static str> {
    let name = found.name.as_str();
    let ends = |suffix: &str| name.ends_with(suffix);
    if ends("_latency") {
        Some("latency")
    } else if ends("_stages") || ends("_stages_sequential") {
        Some("stages")
    } else if ends("_steps") || ends("_steps_spans") {
        Some("steps")
    } else {
        None
    }
}

fn draw(args: &Args, found: &Found) -> anyhow::Result<Drawn> {
    match part_of(found) {
        Some(part) if !args.figures.wants(part) => {
            Ok(Drawn::Kept(format!("part `{part}` is not in --only")))
        }
        Some("latency") => latency::redraw(found),
        Some("stages") => stages::redraw(found),
        Some("steps") => steps::redraw(found),
        _ => bail!("not a figure this program writes (latency, stages, steps)"),
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    if let Some(part) = args
        .figures
        .only
        .iter()
        .find(|p| !PARTS.contains(&p.as_str()))
    {
        bail!(
            "unknown part `{part}` in --only; the parts are: {}",
            PARTS.join(", ")
        );
    }
    args.figures
        .redraw("inference_figures", &[SOURCE], |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use clap::Parser;

    use super::*;

    /// The committed figures of this program, copied with their tables and sidecars.
    fn copy_committed(to: &Path) -> usize {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../figures");
        std::fs::create_dir_all(to).unwrap();
        let mut figures = 0;
        for entry in std::fs::read_dir(&committed).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".json") else {
                continue;
            };
            let text = std::fs::read_to_string(entry.path()).unwrap();
            if !text.contains(&format!("\"program\": \"{SOURCE}")) {
                continue;
            }
            figures += 1;
            for file in std::fs::read_dir(&committed).unwrap().flatten() {
                let other = file.file_name().to_string_lossy().into_owned();
                if other.starts_with(stem) {
                    std::fs::copy(file.path(), to.join(&other)).unwrap();
                }
            }
        }
        figures
    }

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("inference_figures_redraw_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(copy_committed(&dir), 9, "the committed inference figures");
        let svgs_before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "svg"))
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        let out = dir.to_string_lossy().into_owned();
        let args = Args::parse_from([
            "inference_figures",
            "--redraw",
            "--allow-dirty",
            "--out",
            &out,
        ]);
        let report = args
            .figures
            .redraw("inference_figures", &[SOURCE], |found| draw(&args, found))
            .unwrap();
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 10, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 4, "{:?}", report.kept);
        for (path, before) in svgs_before {
            assert_eq!(std::fs::read(&path).unwrap(), before, "{}", path.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
