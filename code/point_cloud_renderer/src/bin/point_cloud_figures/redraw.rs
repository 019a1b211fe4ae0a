//! `--redraw`: every chart of this program drawn again from the tables in the output folder, by
//! the same chart code the measuring parts use; nothing is measured and no adapter is opened.

use anyhow::bail;
use bench_harness::{Drawn, FigureArgs, Found};

use crate::{atomics, sweep};

const SOURCE: &str = "code/point_cloud_renderer/src/bin/point_cloud_figures/";

/// The part that wrote `found`: its sidecar names the part's file.
fn part_of(found: &Found) -> &str {
    let file = found.sidecar.program.strip_prefix(SOURCE).unwrap_or("");
    file.strip_suffix(".rs").unwrap_or(file)
}

fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    let part = part_of(found);
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` is not in --only")));
    }
    match part {
        "sweep" => sweep::redraw(found),
        "atomics" => atomics::redraw(found),
        "frame" => Ok(Drawn::Kept("a PNG the GPU rendered, not a chart".into())),
        other => bail!("written by {other}, which this program does not know"),
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
    args.redraw("point_cloud_figures", &[SOURCE], |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// A chart committed before its table was what the chart draws: the measuring run drew it
    /// from unrounded times, and the table keeps milliseconds to 4 decimals, two or three digits
    /// of the H200's passes, so a bar's printed value changes (0.00978 ms becomes 0.00980). The
    /// measuring run now keeps 6 decimals and draws from the rows it writes, so its next charts
    /// redraw byte-identical.
    const ROUNDED_TABLES: [&str; 1] = ["pointcloud_h200_scopes.svg"];

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
            for ext in ["json", "csv", "svg", "png"] {
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
            std::env::temp_dir().join(format!("point_cloud_redraw_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(copy_committed(&dir), 6, "the committed point-cloud figures");
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
            .redraw("point_cloud_figures", &[SOURCE], |found| draw(&args, found))
            .unwrap();
        let changed: Vec<PathBuf> = ROUNDED_TABLES.iter().map(|f| dir.join(f)).collect();
        assert_eq!(report.written, changed);
        assert_eq!(report.unchanged.len(), 4, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 1, "{:?}", report.kept);
        for (path, before) in svgs_before {
            if !changed.contains(&path) {
                assert_eq!(std::fs::read(&path).unwrap(), before, "{}", path.display());
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
