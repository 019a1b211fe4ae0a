//! `--redraw`: every chart drawn again from its table, by the chart code of the part that
//! measured it.

use bench_harness::{Drawn, FigureArgs, Found};

use crate::{noise, outliers, schemes};

/// Every source file whose figures this program wrote (the sidecars name the part's file).
const SOURCES: [&str; 1] = ["code/quantization/src/bin/quantization_practice_figures/"];

/// Each part and the end of its figure's name (`quant_[machine_]noise_sqnr`).
const FIGURES: [(&str, &str); 3] = [
    ("noise", "noise_sqnr"),
    ("schemes", "weight_schemes"),
    ("outliers", "activation_outliers"),
];

fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    let (part, _) = FIGURES
        .into_iter()
        .find(|(_, tail)| found.name.ends_with(tail))
        .ok_or_else(|| anyhow::anyhow!("not a figure of this program's parts"))?;
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    Ok(match part {
        "noise" => Drawn::Charts(
            noise::charts(&found.rows()?)
                .into_iter()
                .map(|(key, svg)| (format!("{}_{key}.svg", found.name), svg))
                .collect(),
        ),
        "schemes" => Drawn::chart(found, schemes::chart(&found.rows()?)),
        _ => Drawn::chart(found, outliers::chart(&found.rows()?)?),
    })
}

/// Redraws this program's figures in the output folder; `parts` are the names `--only` takes.
pub fn run(args: &FigureArgs, parts: &[&str]) -> anyhow::Result<()> {
    args.check_parts(parts)?;
    args.redraw("quantization_practice_figures", &SOURCES, |found| {
        draw(args, found)
    })?;
    Ok(())
}
