//! Public tests: `cargo nextest run -p ex_m4_alloc_free_loop`.

use ex_m4_alloc_free_loop::TopK;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// Allocations (and reallocations) made while `f` runs, counted by dhat. Each test that counts
/// starts a profiler first; nextest runs every test in its own process, so they never overlap.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = dhat::HeapStats::get().total_blocks;
    f();
    dhat::HeapStats::get().total_blocks - before
}

fn profiler() -> dhat::Profiler {
    dhat::Profiler::builder().testing().build()
}

#[test]
fn alloc_free_loop_public_top_three() {
    let mut top = TopK::new(8, 3);
    let got = top.step(&[0.5, 3.0, -1.0, 2.0, 2.5]).unwrap().to_vec();
    assert_eq!(got, [1, 4, 3]);
    let sum: f32 = top.probabilities().iter().sum();
    assert!((sum - 1.0).abs() < 1e-5);
}

#[test]
fn alloc_free_loop_public_steady_state_allocates_nothing() {
    let _profiler = profiler();
    let mut top = TopK::new(1000, 5);
    let logits: Vec<f32> = (0..1000).map(|i| ((i * 37) % 101) as f32 * 0.1).collect();
    top.step(&logits).unwrap();
    // dhat counts every thread; the fewest allocations over three passes is the loop's own.
    let n = (0..3)
        .map(|_| {
            allocations(|| {
                for _ in 0..10 {
                    top.step(&logits).unwrap();
                }
            })
        })
        .min()
        .unwrap_or(0);
    assert_eq!(n, 0, "step allocated {n} times in 10 frames");
}
