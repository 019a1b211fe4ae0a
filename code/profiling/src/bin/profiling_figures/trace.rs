//! `profiling_graph_trace.trace.json`: one CPU run and a few profiled GPU frames of the random graph,
//! as a Chrome trace; `profiling_gpu_scopes.csv`: every GPU scope of every frame.

use bench_harness::{Csv, Sidecar, figures_dir};
use computational_graphs::random_graph::describe;
use gpu_context::GpuScopes;
use profiling_lab::chrome_trace::{ChromeTrace, add_gpu_frames};
use profiling_lab::graph_frames::{Workload, profiled_frame};
use tracing_subscriber::filter::LevelFilter;

use crate::args::Args;

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (size, depth, iterations, frames) = if args.figures.quick {
        (64, 8, 3, 3)
    } else {
        (256, 8, 4, 5)
    };
    let work = Workload::new(1, size, depth)?;
    let ctx = GpuScopes::open_context()?;
    eprintln!("{}", ctx.report());
    let mut scopes = GpuScopes::new(&ctx)?;
    let program = work.build_gpu(&ctx)?;
    // One unrecorded frame first: pipelines, buffers and the profiler's query pools warm up.
    profiled_frame(&ctx, &mut scopes, &program, &work.input, iterations)?;
    let dir = figures_dir();
    let path = dir.join("profiling_graph_trace.trace.json");
    std::fs::create_dir_all(&dir)?;
    let mut timings = Vec::new();
    {
        let _trace = ChromeTrace::record_to(&path, LevelFilter::DEBUG)?;
        work.run_cpu()?;
        for _ in 0..frames {
            timings.push(profiled_frame(&ctx, &mut scopes, &program, &work.input, iterations)?.1);
        }
    }
    add_gpu_frames(&path, &timings)?;
    let mut csv = Csv::new(&["frame", "scope", "depth", "start_us", "duration_us"]);
    for (frame, roots) in timings.iter().enumerate() {
        let origin = roots.first().map_or(0.0, |r| r.start_s);
        for (depth, scope) in roots.iter().flat_map(|r| r.walk()) {
            csv.row(&[
                frame.to_string(),
                scope.label.clone(),
                depth.to_string(),
                format!("{:.3}", (scope.start_s - origin) * 1e6),
                format!("{:.3}", scope.duration_s() * 1e6),
            ]);
        }
    }
    csv.write(&dir.join("profiling_gpu_scopes.csv"))?;
    // Neither figure has a chart; each sidecar names the one data file it describes.
    let described = [
        ("profiling_graph_trace", "profiling_graph_trace.trace.json"),
        ("profiling_gpu_scopes", "profiling_gpu_scopes.csv"),
    ];
    for (name, file) in described {
        let mut sidecar = Sidecar::new(
            name,
            "The random graph (seed 1) as profiled frames: tracing spans of the CPU runner and \
             the frame's stages, and GPU timestamp scopes (graph > iteration k, read-back copy).",
        );
        sidecar.set_adapter(ctx.report());
        sidecar.files = vec![file.to_owned()];
        sidecar.notes.push(format!(
            "size {size}, depth {depth}, {iterations} graph iterations per frame, {frames} frames \
             after one warm-up frame; GPU scopes placed at the end of each frame's submit span"
        ));
        // The same graph for other tools (torch_profile.py reads this line).
        let graph = serde_json::to_string(&describe(1, size, depth))?;
        sidecar.notes.push(format!("graph: {graph}"));
        sidecar.write(&dir.join(format!("{name}.json")))?;
    }
    Ok(())
}
