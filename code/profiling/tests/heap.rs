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
    let runs: Vec<u64> = (0..6)
        .map(|_| allocations_of(|| drop(work.run_cpu().unwrap())))
        .collect();
    // dhat counts every thread of the process; another thread can only add to a run's count,
    // so the fewest of a few runs is the runner's own. Steady state: the three later runs
    // allocate no more than the three earlier ones (nothing grows).
    let (early, late) = runs.split_at(3);
    let fewest = |r: &[u64]| r.iter().copied().min().unwrap_or(0);
    assert_eq!(fewest(early), fewest(late), "{runs:?}");
    // Per node: its result tensor (a struct and its data) and its argument list.
    assert!(
        fewest(&runs) <= 3 * nodes,
        "{} allocations for {nodes} nodes",
        fewest(&runs)
    );
    // ANCHOR_END: counted

    // NMS: growing vectors reallocate about log2(n) times and the sort takes one buffer, so
    // 2000 boxes cost a few dozen allocations, not one per box or per comparison.
    let dets = generated_detections(1, 2000, 640.0, 480.0);
    let nms = (0..3)
        .map(|_| allocations_of(|| drop(nms_sorted(&dets, 0.25, 0.45))))
        .min()
        .unwrap_or(0);
    assert!(
        nms <= 40,
        "{nms} allocations for one NMS of {} boxes",
        dets.len()
    );
}
