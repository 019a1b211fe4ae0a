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
    args.figures.check_parts(&PARTS)?;
    args.figures
        .redraw("inference_figures", &[SOURCE], |found| draw(args, found))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;
    use clap::Parser;

    use super::*;

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let committed = CommittedFigures::copy("inference_figures", &[SOURCE]).unwrap();
        assert_eq!(
            committed.names().len(),
            9,
            "the committed inference figures"
        );
        let args =
            Args::parse_from(std::iter::once("inference_figures".into()).chain(committed.flags()));
        let report = args
            .figures
            .redraw("inference_figures", &[SOURCE], |found| draw(&args, found))
            .unwrap();
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 10, "{:?}", report.unchanged);
        assert_eq!(report.kept.len(), 4, "{:?}", report.kept);
    }
}
