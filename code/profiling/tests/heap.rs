//! Allocation counts as a test: dhat's heap statistics around the CPU graph runner.
//!
//! One test in this file: dhat allows one profiler per process.

use profiling_lab::graph_frames::Workload;
use profiling_lab::yolo::{generated_detections, nms_sorted};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

// ANCHOR: counted
/// Allocations made by `f`, counted by dhat.
fn allocations_of(f: impl FnOnce()) -> u64 {
    let before = dhat::HeapStats::get().total_blocks;
    f();
    dhat::HeapStats::get().total_blocks - before
}

#[test]
fn runner_allocations_are_bounded_and_the_same_every_run() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let work = Workload::new(3, 16, 12).unwrap();
    let nodes = work.graph.nodes().len() as u64;
    let runs: Vec<u64> = (0..5)
        .map(|_| allocations_of(|| drop(work.run_cpu().unwrap())))
        .collect();
    // Steady state: every run allocates exactly as much as the one before (nothing grows).
    assert!(runs.windows(2).all(|w| w[0] == w[1]), "{runs:?}");
    // Per node: its result tensor (a struct and its data) and its argument list.
    assert!(
        runs[0] <= 3 * nodes,
        "{} allocations for {nodes} nodes",
        runs[0]
    );
    // ANCHOR_END: counted

    // NMS: growing vectors reallocate about log2(n) times and the sort takes one buffer, so
    // 2000 boxes cost a few dozen allocations, not one per box or per comparison.
    let dets = generated_detections(1, 2000, 640.0, 480.0);
    let nms = allocations_of(|| drop(nms_sorted(&dets, 0.25, 0.45)));
    assert!(
        nms <= 40,
        "{nms} allocations for one NMS of {} boxes",
        dets.len()
    );
}
