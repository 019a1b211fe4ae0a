//! A profiled frame of the random graph on this machine's adapter (lavapipe in CI): the Chrome
//! trace parses, holds the CPU spans of the runners, and the GPU row nests as recorded.

use profiling_lab::chrome_trace::{ChromeTrace, GPU_TID, add_gpu_frames, read_events};
use profiling_lab::graph_frames::{Workload, profiled_frame};
use tracing_subscriber::filter::LevelFilter;

#[test]
fn a_profiled_frame_gives_cpu_spans_and_nested_gpu_scopes() {
    let dir = tempfile_dir();
    let path = dir.join("trace.json");
    let work = Workload::new(7, 32, 6).unwrap();
    let ctx = gpu_context::GpuScopes::open_context().unwrap();
    let mut scopes = gpu_context::GpuScopes::new(&ctx).unwrap();
    let program = work.build_gpu(&ctx).unwrap();
    let mut frames = Vec::new();
    {
        let _trace = ChromeTrace::record_to(&path, LevelFilter::DEBUG).unwrap();
        let expected = work.run_cpu().unwrap();
        for _ in 0..2 {
            let (out, timings) =
                profiled_frame(&ctx, &mut scopes, &program, &work.input, 3).unwrap();
            assert!(out[0].max_abs_diff(&expected[0]) < 1e-4);
            frames.push(timings);
        }
    }
    for roots in &frames {
        let names: Vec<&str> = roots.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(names, ["graph", "read-back copy"]);
        let iterations: Vec<&str> = roots[0].children.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(iterations, ["iteration 0", "iteration 1", "iteration 2"]);
        assert!(roots[0].end_s <= roots[1].start_s);
    }
    add_gpu_frames(&path, &frames).unwrap();
    let events = read_events(&path).unwrap();
    let count = |name: &str, ph: &str| {
        events
            .iter()
            .filter(|e| e["name"] == name && e["ph"] == ph)
            .count()
    };
    assert_eq!(count("run_cpu", "B"), 1);
    assert_eq!(count("node", "B"), work.graph.nodes().len());
    assert_eq!(count("frame", "B"), 2);
    assert_eq!(count("submit", "E"), 2);
    let gpu: Vec<_> = events
        .iter()
        .filter(|e| e["tid"] == GPU_TID && e["ph"] == "X")
        .collect();
    assert_eq!(gpu.len(), 2 * (1 + 3 + 1));
    // Each GPU frame starts after its submit call ended.
    let submit_end = events
        .iter()
        .find(|e| e["name"] == "submit" && e["ph"] == "E")
        .and_then(|e| e["ts"].as_f64())
        .unwrap();
    assert!(gpu[0]["ts"].as_f64().unwrap() >= submit_end);
    std::fs::remove_dir_all(dir).ok();
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("profiling_lab_trace_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
