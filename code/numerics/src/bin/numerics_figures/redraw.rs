//! `--redraw`: every numerics chart again from its table, through the parts' own chart
//! functions; the tables without a chart are kept as they are.

use bench_harness::{Drawn, FigureArgs, Found};

use crate::floats_parts::{rounding_error_chart, spacing_chart, summation_chart};
use crate::timed_parts::{compression_charts, per_element_chart, subtitle};

/// The sidecars' `program`: every part's file writes its own figures.
pub const SOURCES: [&str; 1] = ["code/numerics/src/bin/numerics_figures/"];

/// The part (`--only` name) that wrote a figure.
fn part_of(name: &str) -> &str {
    match name {
        "numerics_relative_error" => "spacing",
        _ if name.starts_with("numerics_gpu_dot") => "gpu_dot",
        _ => name.strip_prefix("numerics_").unwrap_or(name),
    }
}

/// Redraws the figures of the `--only` parts (every one of `parts` when it is absent).
pub fn run(args: &FigureArgs, parts: &[&str]) -> anyhow::Result<()> {
    args.check_parts(parts)?;
    args.redraw("numerics_figures", &SOURCES, |found| draw(args, found))?;
    Ok(())
}

pub fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    let part = part_of(&found.name);
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    let timed = || subtitle(&found.sidecar.cpu, found.sidecar.logical_cpus);
    let svg = match part {
        "spacing" if found.name == "numerics_spacing" => spacing_chart(&found.rows()?),
        "spacing" => rounding_error_chart(&found.rows()?),
        "summation" => summation_chart(&found.rows()?),
        "inv_sqrt_time" | "division" => per_element_chart(&found.name, &timed(), &found.rows()?),
        "compression" => return Ok(Drawn::Charts(compression_charts(&timed(), &found.rows()?))),
        _ => return Ok(Drawn::Kept("a table without a chart".into())),
    };
    Ok(Drawn::chart(found, svg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_charts() {
        let redrawn = bench_harness::check_committed("numerics_figures", &SOURCES, draw).unwrap();
        assert_eq!(redrawn.figures.len(), 10, "{:?}", redrawn.figures);
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        // Seven SVGs (compression has two); entropy, the inverse square root's error and the
        // two GPU dot tables have none.
        assert_eq!(report.unchanged.len(), 7);
        assert_eq!(report.kept.len(), 4, "{:?}", report.kept);
    }
}
