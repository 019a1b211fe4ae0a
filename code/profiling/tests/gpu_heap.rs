//! Allocations of the GPU graph runner's steady-state loop, counted by dhat on the real device
//! (lavapipe in CI).
//!
//! One test in this file: dhat allows one profiler per process (the CPU runner's count is in
//! `heap.rs`).

use gpu_context::GpuContext;
use profiling_lab::graph_frames::Workload;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Allocations made by `f`, and the blocks it left allocated, counted by dhat.
fn allocations_of(f: impl FnOnce()) -> (u64, i64) {
    let before = dhat::HeapStats::get();
    f();
    let after = dhat::HeapStats::get();
    let kept = after.curr_blocks as i64 - before.curr_blocks as i64;
    (after.total_blocks - before.total_blocks, kept)
}

// ANCHOR: gpu_counted
#[test]
fn gpu_runner_loop_allocations_are_bounded_and_nothing_is_kept() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let ctx = GpuContext::for_tests();
    let work = Workload::new(3, 16, 12).unwrap();
    // Prepared once: buffers, pipelines, bind groups, read-back buffers.
    let program = work.build_gpu(&ctx).unwrap();
    let input = std::slice::from_ref(&work.input);
    let run =
        |iterations| allocations_of(|| drop(program.run_loop(&ctx, input, iterations).unwrap()));
    // The first runs fill wgpu's pools and caches.
    for _ in 0..3 {
        run(1);
    }
    let runs: Vec<(u64, i64)> = (0..10).map(|_| run(1)).collect();
    // The fewest of three, for the same reason as `fewest` below.
    let longer = (0..3).map(|_| run(9).0).min().unwrap_or(0);
    let dispatches = program.dispatch_count() as u64;
    eprintln!("one iteration: {runs:?}; nine: {longer}; dispatches: {dispatches}");
    // dhat sees what goes through Rust's global allocator, on any thread (not the driver's C
    // allocations). wgpu's clean-up of finished submissions, or another Rust thread, can land
    // inside any one run; a cost of the loop itself shows in every run. So the fewest is its own.
    let fewest = runs.iter().map(|r| r.0).min().unwrap_or(0);
    // Nothing outlives a run: in a run no other thread disturbed, every block is freed inside it.
    assert!(runs.iter().any(|r| r.1 == 0), "{runs:?}");
    // One submit: wgpu's encoding, submission and mapping, plus the output tensor.
    assert!(fewest <= 150, "{fewest} allocations in one run: {runs:?}");
    // Recording the graph again costs a few allocations per dispatch, no more.
    let per_iteration = longer.saturating_sub(fewest) / 8;
    assert!(
        per_iteration <= 3 * dispatches,
        "{per_iteration} allocations per iteration of {dispatches} dispatches"
    );
}
// ANCHOR_END: gpu_counted
