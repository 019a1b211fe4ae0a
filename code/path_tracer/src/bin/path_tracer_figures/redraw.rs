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
    args.check_parts(parts)?;
    args.redraw("path_tracer_figures", &[SOURCE], |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let redrawn =
            bench_harness::check_committed("path_tracer_figures", &[SOURCE], draw).unwrap();
        assert_eq!(
            redrawn.figures.len(),
            8,
            "the committed path tracer figures"
        );
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 4, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 4, "{:?}", report.kept);
    }
}
