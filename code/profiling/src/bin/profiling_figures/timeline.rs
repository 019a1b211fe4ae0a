//! `profiling_graph_timeline.svg`: the median frame of `profiling_graph_trace.trace.json` drawn
//! as a timeline, CPU spans over the GPU's scopes. Nothing is measured: the picture is drawn from
//! the trace file, and its sidecar is the trace's (same commit, machine and device) with a note
//! naming the source trace and the commit that drew it.

use std::path::Path;

use anyhow::Context;
use bench_harness::{Drawn, Found, SidecarRecord, git_commit};
use profiling_lab::chrome_trace::read_events;
use profiling_lab::timeline::{median_frame, slices, to_svg};

const TRACE: &str = "profiling_graph_trace";
const NAME: &str = "profiling_graph_timeline";

/// The timeline of the trace at `trace_path`, its subtitle naming `adapter`.
fn chart(trace_path: &Path, adapter: &str) -> anyhow::Result<String> {
    let events = read_events(trace_path)
        .context("the timeline is drawn from the trace: run `--only trace` first")?;
    let Some((index, count, frame)) = median_frame(&slices(&events), "frame") else {
        anyhow::bail!("{} has no `frame` spans to draw", trace_path.display());
    };
    Ok(to_svg(
        &frame,
        &format!(
            "One GPU frame of the random graph: frame {} of {count}, the median",
            index + 1
        ),
        &format!(
            "{adapter}; CPU: tracing spans; GPU: timestamp scopes, placed from the end of `submit`"
        ),
    ))
}

/// Draws the timeline from the trace and its sidecar in `dir`.
pub fn run(dir: &Path) -> anyhow::Result<()> {
    let sidecar_path = dir.join(format!("{TRACE}.json"));
    let mut record: SidecarRecord =
        serde_json::from_str(&std::fs::read_to_string(&sidecar_path).with_context(|| {
            format!("cannot read the trace's sidecar {}", sidecar_path.display())
        })?)?;
    let adapter = record.adapter["name"].as_str().unwrap_or("GPU").to_owned();
    let svg = chart(&dir.join(format!("{TRACE}.trace.json")), &adapter)?;
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
    eprintln!("drew {NAME}.svg from {TRACE}.trace.json");
    Ok(())
}

/// `--redraw`: the timeline from the trace beside it, the adapter from its sidecar.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let trace_path = found.path(&format!("{TRACE}.trace.json"));
    let svg = chart(&trace_path, found.adapter_name().unwrap_or("GPU"))?;
    Ok(Drawn::chart(found, svg))
}
