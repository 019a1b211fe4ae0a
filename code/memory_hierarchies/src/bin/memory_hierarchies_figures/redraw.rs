//! `--redraw`: every memory chart again from its table, through the sections' own chart
//! functions; the cachegrind table has no chart.

use bench_harness::{Drawn, FigureArgs, Found};

use crate::report::bar_chart;
use crate::sweeps::{bandwidth_chart, latency_chart};

/// The sidecars' `program`: the section files write every figure.
pub const SOURCES: [&str; 1] = ["code/memory_hierarchies/src/bin/memory_hierarchies_figures/"];

/// The section (`--only` name) that wrote each figure.
const SECTION_OF: [(&str, &str); 17] = [
    ("memory_latency", "latency"),
    ("memory_bandwidth", "latency"),
    ("memory_first_touch", "virtual_memory"),
    ("memory_access_patterns", "layouts"),
    ("memory_transpose", "layouts"),
    ("memory_containers", "containers"),
    ("memory_jagged", "containers"),
    ("memory_permutation", "containers"),
    ("memory_vec_growth", "growth"),
    ("memory_scratch", "growth"),
    ("memory_hash_maps", "cpu"),
    ("memory_branches", "cpu"),
    ("memory_inlining", "cpu"),
    ("memory_refcount", "cpu"),
    ("memory_aliasing_loop", "aliasing"),
    ("memory_aliasing_chain", "aliasing"),
    ("memory_cachegrind", "cachegrind"),
];

/// Redraws the figures of the `--only` sections (every one of `sections` when it is absent).
pub fn run(args: &FigureArgs, sections: &[&str]) -> anyhow::Result<()> {
    args.check_parts(sections)?;
    args.redraw("memory_hierarchies_figures", &SOURCES, |found| {
        draw(args, found)
    })?;
    Ok(())
}

pub fn draw(args: &FigureArgs, found: &Found) -> anyhow::Result<Drawn> {
    let Some((_, section)) = SECTION_OF.iter().find(|(name, _)| *name == found.name) else {
        anyhow::bail!("no section of this program writes a figure of this name");
    };
    if !args.wants(section) {
        return Ok(Drawn::Kept(format!("section `{section}` not in --only")));
    }
    let sidecar = &found.sidecar;
    let svg = match found.name.as_str() {
        "memory_cachegrind" => return Ok(Drawn::Kept("a table without a chart".into())),
        "memory_latency" => latency_chart(&sidecar.machine, &sidecar.caches, &found.rows()?),
        "memory_bandwidth" => bandwidth_chart(&sidecar.machine, &sidecar.caches, &found.rows()?),
        // A bar figure's title is its description.
        name => bar_chart(name, &sidecar.description, &sidecar.machine, &found.rows()?),
    };
    Ok(Drawn::chart(found, svg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_charts() {
        let redrawn =
            bench_harness::check_committed("memory_hierarchies_figures", &SOURCES, draw).unwrap();
        assert_eq!(
            redrawn.figures.len(),
            SECTION_OF.len(),
            "{:?}",
            redrawn.figures
        );
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), SECTION_OF.len() - 1);
        assert_eq!(report.kept.len(), 1, "{:?}", report.kept);
    }
}
