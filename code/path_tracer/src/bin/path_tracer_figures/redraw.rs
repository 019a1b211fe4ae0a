//! `--redraw`: every chart of this program drawn again from the tables in the output folder, by
//! the same chart code the measuring parts use; nothing is measured and no adapter is opened.

use anyhow::bail;
use bench_harness::{Drawn, FigureArgs, Found};

use crate::{bvh, kernels, throughput};

const SOURCE: &str = "code/path_tracer/src/bin/path_tracer_figures/";

/// The part that wrote `found`, by the figure's name (`path_tracer[_machine]_{figure}`): the
/// sidecars measured so far name `setup.rs`, not the part's file.
fn part_of(found: &Found) -> Option<&'static str> {
    let ends = |suffix: &str| found.name.ends_with(suffix);
    if ends("_throughput") || ends("_queues") {
        Some("throughput")
    } else if ends("_kernels") {
        Some("kernels")
    } else if ends("_bvh") {
        Some("bvh")
    } else if ends("_bounce_lanes") {
        Some("bounce_lanes")
    } else if ends("_wavefront_lanes") {
        Some("wavefront_lanes")
    } else {
        None
    }
}

fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    match part_of(found) {
        Some(part) if !args.wants(part) => {
            Ok(Drawn::Kept(format!("part `{part}` is not in --only")))
        }
        Some("throughput") => throughput::redraw(found),
        Some("kernels") => kernels::redraw(found),
        Some("bvh") => bvh::redraw(found),
        Some(_) => Ok(Drawn::Kept("a table of ballot counts, no chart".into())),
        None => bail!("not a figure this program writes"),
    }
}

/// `parts`: the program's parts, which `--only` may name.
pub fn run(args: &FigureArgs, parts: &[&str]) -> anyhow::Result<()> {
    if let Some(part) = args.only.iter().find(|p| !parts.contains(&p.as_str())) {
        bail!(
            "unknown part `{part}` in --only; the parts are: {}",
            parts.join(", ")
        );
    }
    args.redraw("path_tracer_figures", &[SOURCE], |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

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
            for ext in ["json", "csv", "svg"] {
                let file = committed.join(format!("{stem}.{ext}"));
                if file.exists() {
                    std::fs::copy(&file, to.join(format!("{stem}.{ext}"))).unwrap();
                }
            }
        }
        figures
    }

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("path_tracer_redraw_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(copy_committed(&dir), 8, "the committed path tracer figures");
        let svgs_before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "svg"))
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        let args = FigureArgs {
            out: Some(dir.clone()),
            allow_dirty: true,
            redraw: true,
            ..FigureArgs::default()
        };
        let report = args
            .redraw("path_tracer_figures", &[SOURCE], |found| draw(&args, found))
            .unwrap();
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 4, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 4, "{:?}", report.kept);
        for (path, before) in svgs_before {
            assert_eq!(std::fs::read(&path).unwrap(), before, "{}", path.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
