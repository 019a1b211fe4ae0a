//! `--redraw`: the latency chart drawn again from its table, by the same chart code that drew it
//! when it was measured; the accuracy figure is a table without a chart.

use bench_harness::{Drawn, FigureArgs, Found};

use crate::latency;

/// Every source file whose figures this program wrote (the sidecars name the part's file).
const SOURCES: [&str; 1] = ["code/quantization/src/bin/inference_figures/"];

/// The part that wrote a figure, read from the figure's name (`inference_[machine_]accuracy`).
fn part_of(found: &Found) -> Option<&'static str> {
    ["accuracy", "latency"]
        .into_iter()
        .find(|part| found.name.ends_with(&format!("_{part}")))
}

fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    let part = part_of(found)
        .ok_or_else(|| anyhow::anyhow!("not a figure of inference_figures' parts"))?;
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    Ok(match part {
        "latency" => {
            let adapter = found
                .adapter_name()
                .ok_or_else(|| anyhow::anyhow!("the sidecar names no adapter"))?;
            Drawn::chart(found, latency::chart(&found.rows()?, adapter))
        }
        _ => Drawn::Kept("a table for the text, without a chart".into()),
    })
}

/// Redraws this program's figures in the output folder; `parts` are the names `--only` takes.
pub fn run(args: &FigureArgs, parts: &[&str]) -> anyhow::Result<()> {
    args.check_parts(parts)?;
    args.redraw("inference_figures", &SOURCES, |found| draw(args, found))?;
    Ok(())
}
