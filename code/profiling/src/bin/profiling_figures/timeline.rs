//! `profiling_graph_timeline.svg`: the median frame of `profiling_graph_trace.trace.json` drawn
//! as a timeline, CPU spans over the GPU's scopes. Nothing is measured: the picture is drawn from
//! the trace file, and its sidecar is the trace's (same commit, machine and device) with a note
//! naming the source trace and the commit that drew it.

use anyhow::Context;
use bench_harness::{SidecarRecord, git_commit};
use profiling_lab::chrome_trace::read_events;
use profiling_lab::timeline::{median_frame, slices, to_svg};

const TRACE: &str = "profiling_graph_trace";
const NAME: &str = "profiling_graph_timeline";

/// Draws the timeline from the trace and its sidecar in `dir`.
pub fn run(dir: &std::path::Path) -> anyhow::Result<()> {
    let trace_path = dir.join(format!("{TRACE}.trace.json"));
    let events = read_events(&trace_path)
        .context("the timeline is drawn from the trace: run `--only trace` first")?;
    let sidecar_path = dir.join(format!("{TRACE}.json"));
    let mut record: SidecarRecord =
        serde_json::from_str(&std::fs::read_to_string(&sidecar_path).with_context(|| {
            format!("cannot read the trace's sidecar {}", sidecar_path.display())
        })?)?;
    let Some((index, count, frame)) = median_frame(&slices(&events), "frame") else {
        anyhow::bail!("{} has no `frame` spans to draw", trace_path.display());
    };
    let adapter = record.adapter["name"].as_str().unwrap_or("GPU").to_owned();
    let svg = to_svg(
        &frame,
        &format!(
            "One GPU frame of the random graph: frame {} of {count}, the median",
            index + 1
        ),
        &format!(
            "{adapter}; CPU: tracing spans; GPU: timestamp scopes, placed from the end of `submit`"
        ),
    );
    std::fs::write(dir.join(format!("{NAME}.svg")), svg)?;
    record.figure = NAME.into();
    record.description = "The median frame of the random graph's trace as a timeline: the CPU's \
                          spans over the GPU's timestamp scopes"
        .into();
    record.files = vec![format!("{NAME}.svg")];
    record.notes.push(format!(
        "drawn from {TRACE}.trace.json (measured at this sidecar's commit, on this machine) by \
         profiling_figures --only timeline (timeline.rs) at commit {}",
        git_commit()
    ));
    let mut json = serde_json::to_string_pretty(&record)?;
    json.push('\n');
    std::fs::write(dir.join(format!("{NAME}.json")), json)?;
    eprintln!("drew {NAME}.svg from {}", trace_path.display());
    Ok(())
}
