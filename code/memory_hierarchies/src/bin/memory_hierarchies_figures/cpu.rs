//! Hash maps, branch prediction, inlining and reference counting.

use std::rc::Rc;
use std::sync::Arc;

use bench_harness::{Progress, Stats, black_box};

use crate::clock::measure;
use memory_hierarchies::{gc, hashing, inlining, pipeline, pointers};

use crate::config::Config;
use crate::report::{Row, bar_figure};

fn m(cfg: &Config, f: impl FnMut()) -> Stats {
    measure(cfg.warmup, cfg.samples, f)
}

pub fn hash_maps(cfg: &Config) -> std::io::Result<()> {
    let big = if cfg.quick { 100_000 } else { 1_000_000 };
    let progress = Progress::new(8, "hash maps");
    let mut rows = Vec::new();
    for n in [10_000, big] {
        let ints = hashing::int_keys(n, 1);
        let strings = hashing::string_keys(&ints);
        let mut run = |label: &str, f: &mut dyn FnMut() -> u64| {
            progress.step(label);
            let s = m(cfg, || {
                black_box(f());
            });
            rows.push(Row::new(&format!("{label}, {n} keys"), n, s));
        };
        let map = hashing::build_map(&ints, hashing::fx_hasher());
        run("u64 + FxHash", &mut || hashing::lookup_all(&map, &ints));
        let map = hashing::build_map(&ints, hashing::default_hasher());
        run("u64 + SipHash (default)", &mut || {
            hashing::lookup_all(&map, &ints)
        });
        let map = hashing::build_map(&strings, hashing::fx_hasher());
        run("String + FxHash", &mut || {
            hashing::lookup_all(&map, &strings)
        });
        let map = hashing::build_map(&strings, hashing::default_hasher());
        run("String + SipHash (default)", &mut || {
            hashing::lookup_all(&map, &strings)
        });
    }
    progress.finish();
    bar_figure(
        "memory_hash_maps",
        "Looking up every key once: key type and hasher",
        &rows,
        vec!["keys: random 56-bit integers, or the same as 19-byte strings".into()],
    )
}

pub fn branches_and_inlining(cfg: &Config) -> std::io::Result<()> {
    let n = if cfg.quick { 1 << 20 } else { 1 << 24 };
    let unsorted = pipeline::random_bytes(n, 3);
    let mut sorted = unsorted.clone();
    sorted.sort_unstable();
    let progress = Progress::new(6, "branches + inlining");
    let mut rows = Vec::new();
    for (label, data, branchy) in [
        ("branch, sorted", &sorted, true),
        ("branch, random", &unsorted, true),
        ("branchless, sorted", &sorted, false),
        ("branchless, random", &unsorted, false),
    ] {
        progress.step(label);
        let s = m(cfg, || {
            let d = black_box(&data[..]);
            black_box(if branchy {
                pipeline::sum_above_branchy(d, 128)
            } else {
                pipeline::sum_above_branchless(d, 128)
            });
        });
        rows.push(Row::new(label, n, s));
    }
    bar_figure(
        "memory_branches",
        &format!("Summing the {n} bytes ≥ 128, with and without a branch"),
        &rows,
        vec!["random bytes: the branch is taken half of the time, unpredictably".into()],
    )?;

    let mut values: Vec<f32> = (0..n).map(|i| i as f32).collect();
    progress.step("inlined");
    let inlined = m(cfg, || inlining::apply_inlined(black_box(&mut values)));
    progress.step("calls");
    let calls = m(cfg, || inlining::apply_with_calls(black_box(&mut values)));
    progress.finish();
    bar_figure(
        "memory_inlining",
        &format!("x * 1.5 + 0.25 over {n} f32: inlined vs a call per element"),
        &[
            Row::new("inlined (vectorised)", n, inlined),
            Row::new("#[inline(never)] call", n, calls),
        ],
        vec![],
    )
}

pub fn smart_pointers(cfg: &Config) -> std::io::Result<()> {
    let n = if cfg.quick { 100_000 } else { 1_000_000 };
    let rcs: Vec<Rc<u64>> = (0..n as u64).map(Rc::new).collect();
    let arcs: Vec<Arc<u64>> = (0..n as u64).map(Arc::new).collect();
    let progress = Progress::new(5, "smart pointers");
    progress.step("borrow Rc");
    let borrow_rc = m(cfg, || {
        black_box(pointers::sum_borrowed(black_box(&rcs)));
    });
    progress.step("clone Rc");
    let clone_rc = m(cfg, || {
        black_box(pointers::sum_cloning_rc(black_box(&rcs)));
    });
    progress.step("borrow Arc");
    let borrow_arc = m(cfg, || {
        black_box(pointers::sum_borrowed_arc(black_box(&arcs)));
    });
    progress.step("clone Arc");
    let clone_arc = m(cfg, || {
        black_box(pointers::sum_cloning_arc(black_box(&arcs)));
    });

    // The tracing side: a heap of n objects in chains of 10, half of them unreachable; one
    // collection marks the live half and sweeps the rest. Built fresh for every sample.
    progress.step("mark and sweep");
    let mut collect_times = Vec::new();
    for round in 0..cfg.warmup + cfg.samples {
        let mut heap = gc::Heap::default();
        let mut prev = None;
        for i in 0..n {
            let h = heap.alloc(i as i64);
            match prev {
                Some(p) if i % 10 != 0 => heap.link(p, h),
                _ => {
                    if (i / 10) % 2 == 0 {
                        heap.roots.push(h);
                    }
                }
            }
            prev = Some(h);
        }
        let mut freed = 0;
        let t = crate::clock::time(|| freed = black_box(heap.collect())).as_secs_f64();
        assert_eq!(freed, n / 2, "half of the chains are unreachable");
        if round >= cfg.warmup {
            collect_times.push(t);
        }
    }
    progress.finish();
    let collect = Stats::from_seconds(&collect_times).expect("at least one sample");
    bar_figure(
        "memory_refcount",
        &format!("Reading {n} shared values: borrow, clone the handle, or trace"),
        &[
            Row::new("&Rc<u64>: borrow", n, borrow_rc),
            Row::new("Rc::clone + drop", n, clone_rc),
            Row::new("&Arc<u64>: borrow", n, borrow_arc),
            Row::new("Arc::clone + drop", n, clone_arc),
            Row::new("mark-and-sweep collect", n, collect)
                .with_note("per object in the heap; half live, half freed".into()),
        ],
        vec!["single thread; Arc's counts are atomic even with no other thread".into()],
    )
}
