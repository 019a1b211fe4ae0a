//! `--redraw`: every chart of this program drawn again from the tables in the output folder, by
//! the same chart code the measuring parts use; nothing is measured and no adapter is opened.

use anyhow::bail;
use bench_harness::{Drawn, Found};

use crate::args::{Args, PARTS};
use crate::{nms, overheads, runner_reuse, span_cost, timeline, training_gpu, yolo_frame};

const SOURCE: &str = "code/profiling/src/bin/profiling_figures/";

/// The part that wrote `found`: its sidecar names the part's file; two files write two parts.
fn part_of(found: &Found) -> &str {
    let file = found.sidecar.program.strip_prefix(SOURCE).unwrap_or("");
    match file.strip_suffix(".rs").unwrap_or(file) {
        "trace" if found.name.ends_with("_timeline") => "timeline",
        "training_gpu" if found.name.ends_with("training_scopes") => "training_scopes",
        part => part,
    }
}

/// The source file of each part, for `--only`.
fn source_of(part: &str) -> String {
    let file = match part {
        "timeline" => "trace",
        "training_scopes" => "training_gpu",
        other => other,
    };
    format!("{SOURCE}{file}.rs")
}

fn draw(args: &Args, found: &Found) -> anyhow::Result<Drawn> {
    let part = part_of(found);
    if !args.figures.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` is not in --only")));
    }
    let kept = |why: &str| Ok(Drawn::Kept(why.into()));
    match part {
        "span_cost" => span_cost::redraw(found),
        "timeline" => timeline::redraw(found),
        "trace" => kept("a Chrome trace and a table of its GPU scopes, no chart"),
        "nms" => nms::redraw(found),
        "nms_branches" | "massif" => kept("a table (and massif's text reports), no chart"),
        "yolo_frame" => yolo_frame::redraw(found),
        "overheads" => overheads::redraw(found),
        "flamegraph" => kept(
            "inferno draws the flame graph from perf's folded stacks, which are not kept; the \
             table holds only the shares of a few frames",
        ),
        "runner_reuse" => runner_reuse::redraw(found),
        "training_gpu" | "training_scopes" => training_gpu::redraw(found),
        other => bail!("written by {other}, which this program does not know"),
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    args.figures.check_parts(&PARTS)?;
    let mut sources: Vec<String> = PARTS
        .iter()
        .filter(|p| args.figures.wants(p))
        .map(|p| source_of(p))
        .collect();
    sources.dedup();
    let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
    args.figures
        .redraw("profiling_figures", &sources, |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;
    use clap::Parser;

    use super::*;

    /// Charts committed before their tables were what the chart draws: the measuring run drew
    /// them from unrounded values, and the table keeps 2 or 4 decimals, so a bar's printed value
    /// changes in its last digit (31.3 becomes 31.4, 7.8e-4 ms 8.0e-4). The measuring run now
    /// draws from the rows it writes (the YOLO stages' milliseconds now to 6 decimals), so its
    /// next charts redraw byte-identical.
    const ROUNDED_TABLES: [&str; 2] = ["profiling_overheads.svg", "profiling_yolo_frame.svg"];

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let committed = CommittedFigures::copy("profiling_figures", &[SOURCE]).unwrap();
        assert_eq!(
            committed.names().len(),
            19,
            "the committed figures of profiling_figures"
        );
        let args =
            Args::parse_from(std::iter::once("profiling_figures".into()).chain(committed.flags()));
        let report = args
            .figures
            .redraw("profiling_figures", &[SOURCE], |found| draw(&args, found))
            .unwrap();
        assert_eq!(report.written_files(), ROUNDED_TABLES);
        assert_eq!(report.unchanged.len(), 12, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 8, "{:?}", report.kept);
    }
}
