//! `--redraw`: the memory and starvation charts drawn again from their CSVs through the chart
//! functions the measuring run used; the sizes figure is a table without a chart.

use bench_harness::{Drawn, FigureArgs, FigureError, Found, RedrawReport};

use crate::measure::{PARTS, memory_charts, starvation_chart, subtitle_of};

/// The source files that write this program's figures (their sidecars' `program`).
const SOURCES: &[&str] = &["code/parallelism/src/bin/async_figures/"];

pub fn run(args: &FigureArgs) -> Result<RedrawReport, Box<dyn std::error::Error>> {
    if let Some(part) = args.only.iter().find(|p| !PARTS.contains(&p.as_str())) {
        let known = PARTS.join(", ");
        return Err(format!("unknown part `{part}` in --only; the parts are: {known}").into());
    }
    Ok(args.redraw("async_figures", SOURCES, |found| draw(args, found))?)
}

/// The part that wrote a figure: `parallel_async_<part>` with an optional machine suffix.
fn part_of(found: &Found) -> Option<&'static str> {
    let name = found.sidecar.figure.strip_prefix("parallel_async_")?;
    PARTS.iter().copied().find(|p| name.starts_with(p))
}

fn draw(args: &FigureArgs, found: &Found) -> Result<Drawn, FigureError> {
    let subtitle = subtitle_of(&found.sidecar);
    Ok(match part_of(found) {
        Some(part) if !args.wants(part) => Drawn::Kept("not a part --only asked for".into()),
        Some("memory") => {
            let [resident, create] = memory_charts(&found.rows()?, &subtitle);
            Drawn::Charts(vec![
                (format!("{}.svg", found.name), resident),
                (format!("{}_create.svg", found.name), create),
            ])
        }
        Some("starvation") => Drawn::chart(found, starvation_chart(&found.rows()?, &subtitle)),
        Some(_) => Drawn::Kept("a table of future sizes, without a chart".into()),
        None => Drawn::Kept(format!("{} is not a figure of async_figures", found.name)),
    })
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// A fresh folder holding copies of this program's committed figures (tables, sidecars,
    /// SVGs).
    fn committed_copies(dir: &Path) -> Vec<String> {
        let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../figures");
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).unwrap();
        let found = bench_harness::figures_of(&committed, SOURCES).unwrap();
        for figure in &found {
            let svgs = [
                format!("{}.svg", figure.name),
                format!("{}_create.svg", figure.name),
            ];
            for file in [
                format!("{}.csv", figure.name),
                format!("{}.json", figure.name),
            ]
            .into_iter()
            .chain(svgs)
            {
                if committed.join(&file).exists() {
                    std::fs::copy(committed.join(&file), dir.join(&file)).unwrap();
                }
            }
        }
        found.into_iter().map(|f| f.name).collect()
    }

    #[test]
    fn redrawing_the_committed_figures_reproduces_every_svg() {
        let dir = std::env::temp_dir().join(format!("async_figures_redraw_{}", std::process::id()));
        let names = committed_copies(&dir);
        assert_eq!(names.len(), 6, "{names:?}");
        let args = FigureArgs {
            out: Some(dir.clone()),
            allow_dirty: true,
            redraw: true,
            ..FigureArgs::default()
        };
        let report = run(&args).unwrap();
        let kept: Vec<&str> = report.kept.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            kept,
            ["parallel_async_sizes", "parallel_async_sizes_16core"]
        );
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        // Memory draws two charts, starvation one, on each of the two machines.
        assert_eq!(report.unchanged.len(), 6);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
