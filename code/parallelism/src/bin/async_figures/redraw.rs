//! `--redraw`: the memory and starvation charts drawn again from their CSVs through the chart
//! functions the measuring run used; the sizes figure is a table without a chart.

use bench_harness::{Drawn, FigureArgs, FigureError, Found, RedrawReport};

use crate::measure::{PARTS, memory_charts, starvation_chart, subtitle_of};

/// The source files that write this program's figures (their sidecars' `program`).
const SOURCES: &[&str] = &["code/parallelism/src/bin/async_figures/"];

pub fn run(args: &FigureArgs) -> Result<RedrawReport, Box<dyn std::error::Error>> {
    args.check_parts(PARTS)?;
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
    use bench_harness::CommittedFigures;

    use super::*;

    #[test]
    fn redrawing_the_committed_figures_reproduces_every_svg() {
        let committed = CommittedFigures::copy("async_figures", SOURCES).unwrap();
        assert_eq!(committed.names().len(), 6, "{:?}", committed.names());
        let report = run(&committed.args()).unwrap();
        assert_eq!(
            report.kept_names(),
            ["parallel_async_sizes", "parallel_async_sizes_16core"]
        );
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        // Memory draws two charts, starvation one, on each of the two machines.
        assert_eq!(report.unchanged.len(), 6);
    }
}
