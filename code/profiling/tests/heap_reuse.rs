//! The buffer-reusing CPU runner allocates nothing once its workspace is sized, counted by dhat.
//!
//! One test in this file: dhat allows one profiler per process.

use computational_graphs::graph::runner_cpu::Workspace;
use profiling_lab::graph_frames::Workload;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// The fewest allocations over three calls of `f`. dhat counts every thread of the process, and
/// another thread can only add to a call's count, so the fewest is `f`'s own.
fn fewest_allocations_of(mut f: impl FnMut()) -> u64 {
    (0..3)
        .map(|_| {
            let before = dhat::HeapStats::get().total_blocks;
            f();
            dhat::HeapStats::get().total_blocks - before
        })
        .min()
        .unwrap_or(0)
}

// ANCHOR: zero_after_warmup
#[test]
fn reusing_runner_allocates_nothing_after_its_first_run() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let work = Workload::new(3, 16, 12).unwrap();
    let allocating = fewest_allocations_of(|| drop(work.run_cpu().unwrap()));
    let mut workspace = Workspace::new(&work.graph);
    let first = fewest_allocations_of(|| {
        let mut fresh = Workspace::new(&work.graph);
        work.run_cpu_reusing(&mut fresh).unwrap();
    });
    work.run_cpu_reusing(&mut workspace).unwrap(); // warm-up: sizes every buffer
    let later = fewest_allocations_of(|| work.run_cpu_reusing(&mut workspace).unwrap());
    assert_eq!(
        later, 0,
        "after warm-up (allocating runner: {allocating} per run)"
    );
    // The counter does see the allocating runner, and a fresh workspace's first run.
    assert!(
        allocating >= work.graph.nodes().len() as u64,
        "{allocating}"
    );
    assert!(first > 0, "{first}");
}
// ANCHOR_END: zero_after_warmup
