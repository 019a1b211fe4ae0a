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
    args.check_parts(parts)?;
    args.redraw("point_cloud_figures", &[SOURCE], |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chart committed before its table was what the chart draws: the measuring run drew it
    /// from unrounded times, and the table keeps milliseconds to 4 decimals, two or three digits
    /// of the H200's passes, so a bar's printed value changes (0.00978 ms becomes 0.00980). The
    /// measuring run now keeps 6 decimals and draws from the rows it writes, so its next charts
    /// redraw byte-identical.
    const ROUNDED_TABLES: [&str; 1] = ["pointcloud_h200_scopes.svg"];

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let redrawn =
            bench_harness::check_committed("point_cloud_figures", &[SOURCE], draw).unwrap();
        assert_eq!(
            redrawn.figures.len(),
            6,
            "the committed point-cloud figures"
        );
        let report = redrawn.report;
        assert_eq!(report.written_files(), ROUNDED_TABLES);
        assert_eq!(report.unchanged.len(), 4, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 1, "{:?}", report.kept);
    }
}
