//! `--redraw`: every chart of this program drawn again from its CSV through the chart function
//! the measuring run used; the title is the sidecar's description, the machine its summary.

use bench_harness::{Drawn, FigureArgs, FigureError, Found, RedrawReport, read_rows};

use crate::rt_basics::{
    deadline_periods, deadlines_chart, inversion_chart, inversion_scenes, page_faults_chart,
};
use crate::rule_figures::{priority_chart, rules_chart};

/// The source files that write this program's figures (their sidecars' `program`), including
/// the single file it once was.
const SOURCES: &[&str] = &["code/realtime/src/bin/realtime_figures"];

/// What each figure is, by the start of its name: the part of `--only` that measures it, or
/// `None` for the hot loops, which every hot-loop rule but sleeping measures.
const KINDS: [(&str, Option<&str>); 8] = [
    ("realtime_hot_loops", None),
    ("realtime_sleep", Some("sleeping")),
    ("realtime_method", Some("method")),
    ("realtime_loop_checks", Some("checks")),
    ("realtime_priority_inversion", Some("inversion")),
    ("realtime_priority", Some("priority")),
    ("realtime_page_faults", Some("page_faults")),
    ("realtime_deadlines", Some("deadlines")),
];

pub fn run(args: &FigureArgs, parts: &[&str]) -> anyhow::Result<RedrawReport> {
    args.check_parts(parts)?;
    Ok(args.redraw("realtime_figures", SOURCES, |found| draw(args, found))?)
}

fn draw(args: &FigureArgs, found: &Found) -> Result<Drawn, FigureError> {
    let figure = found.sidecar.figure.as_str();
    let Some((kind, part)) = KINDS.into_iter().find(|(k, _)| figure.starts_with(k)) else {
        return Ok(Drawn::Kept(format!(
            "{figure} is not a figure of realtime_figures"
        )));
    };
    let wanted = match part {
        Some(part) => args.wants(part),
        None => args.only.is_empty() || args.only.iter().any(|p| p != "sleeping"),
    };
    if !wanted {
        return Ok(Drawn::Kept("not a part --only asked for".into()));
    }
    let (title, machine) = (&found.sidecar.description, &found.sidecar.machine);
    let svg = match kind {
        "realtime_priority_inversion" => {
            let rows = found.rows()?;
            let Some(scenes) = inversion_scenes(&rows) else {
                return Ok(Drawn::Kept(
                    "no protocol was measured (every row refused), and the table does not hold \
                     the number of scenes the empty chart's subtitle names"
                        .into(),
                ));
            };
            inversion_chart(title, machine, scenes, &rows)
        }
        "realtime_priority" => priority_chart(title, machine, &found.rows()?),
        "realtime_page_faults" => page_faults_chart(title, machine, &found.rows()?),
        "realtime_deadlines" => {
            let periods = deadline_periods(&found.rows()?);
            let trace = read_rows(&found.path(&format!("{}_trace.csv", found.name)))?;
            deadlines_chart(title, machine, periods, &trace)
        }
        _ => rules_chart(title, machine, &found.rows()?),
    };
    Ok(Drawn::chart(found, svg))
}

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;

    use super::*;

    #[test]
    fn redrawing_the_committed_figures_reproduces_every_svg() {
        let committed = CommittedFigures::copy("realtime_figures", SOURCES).unwrap();
        assert_eq!(committed.names().len(), 17, "{:?}", committed.names());
        let report = run(&committed.args(), &[]).unwrap();
        // The H200 host refused SCHED_FIFO: its inversion chart is empty, and its subtitle's
        // planned scene count is not in the table.
        assert_eq!(
            report.kept_names(),
            ["realtime_priority_inversion_h200host"]
        );
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 16);
    }
}
