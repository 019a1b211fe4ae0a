//! Access patterns, transposition and containers: the same work, laid out differently.

use bench_harness::{Progress, Stats, black_box};

use crate::clock::measure;
use memory_hierarchies::access::{self, Matrix};
use memory_hierarchies::containers::{self, Flat};
use memory_hierarchies::rng::shuffled;
use memory_hierarchies::vec_growth;

use crate::config::Config;
use crate::report::{Row, bar_figure};

/// Side of a square f32 matrix of about three times the LLC, not a power of two (powers of two
/// add cache-set conflicts on top of the effect we want to show).
pub fn matrix_side(cfg: &Config) -> usize {
    let elements = 3 * cfg.big / 4 / 4;
    ((elements as f64).sqrt() as usize / 100 * 100).max(100)
}

/// Elements of a u64 array of `cfg.big` bytes.
pub fn big_u64s(cfg: &Config) -> usize {
    cfg.big / 8
}

fn m(cfg: &Config, f: impl FnMut()) -> Stats {
    measure(cfg.warmup, cfg.samples, f)
}

pub fn access_patterns(cfg: &Config) -> std::io::Result<()> {
    let progress = Progress::new(5, "access patterns");
    let n = big_u64s(cfg);
    let data: Vec<u64> = (0..n as u64).collect();
    let mut rows = Vec::new();
    for (label, order) in [
        ("sequential", access::sequential_order(n)),
        (
            "strided (16 elements = 128 B)",
            access::strided_order(n, 16),
        ),
        ("random", shuffled(n, 11)),
    ] {
        progress.step(label);
        let s = m(cfg, || {
            black_box(access::sum_in_order(black_box(&data), black_box(&order)));
        });
        rows.push(Row::new(label, n, s));
    }
    drop(data);

    let side = matrix_side(cfg);
    let matrix = Matrix::ramp(side, side);
    progress.step("row-major");
    let row = m(cfg, || {
        black_box(access::sum_row_major(black_box(&matrix)));
    });
    progress.step("column-major");
    let col = m(cfg, || {
        black_box(access::sum_col_major(black_box(&matrix)));
    });
    progress.finish();
    let mb = (side * side * 4) >> 20;
    rows.push(Row::new(
        &format!("row-major {side}² f32"),
        side * side,
        row,
    ));
    rows.push(Row::new(
        &format!("column-major {side}² f32"),
        side * side,
        col,
    ));
    bar_figure(
        "memory_access_patterns",
        "Summing an array past the LLC in different orders",
        &rows,
        vec![
            format!(
                "sequential/strided/random: {n} u64 ({} MiB) summed through an index list of u32",
                cfg.big >> 20
            ),
            format!("matrix: {side}×{side} f32 ({mb} MiB)"),
        ],
    )
}

pub fn transpose(cfg: &Config) -> std::io::Result<()> {
    let side = matrix_side(cfg);
    let matrix = Matrix::ramp(side, side);
    let mut out = access::transposed_shape(&matrix);
    let blocks = [8, 16, 32, 64];
    let progress = Progress::new(1 + blocks.len() as u64, "transpose");
    progress.step("naive");
    let naive = m(cfg, || {
        access::transpose_naive(black_box(&matrix), &mut out)
    });
    let mut rows = vec![Row::new("naive", side * side, naive)];
    for b in blocks {
        progress.step(&format!("blocked {b}"));
        let s = m(cfg, || {
            access::transpose_blocked(black_box(&matrix), &mut out, b)
        });
        rows.push(Row::new(&format!("blocked {b}×{b}"), side * side, s));
    }
    progress.finish();
    bar_figure(
        "memory_transpose",
        "Transposing a matrix: naive vs blocked",
        &rows,
        vec![format!(
            "{side}×{side} f32 ({} MiB per matrix)",
            (side * side * 4) >> 20
        )],
    )
}

/// Distance in bytes under which two consecutive elements count as neighbours.
const NEAR: usize = 64;

pub fn containers(cfg: &Config) -> std::io::Result<()> {
    let n = if cfg.quick { 100_000 } else { 1_000_000 };
    let values: Vec<u64> = (0..n as u64).collect();
    let progress = Progress::new(5, "containers");
    let mut rows = Vec::new();

    progress.step("Vec");
    let s = m(cfg, || {
        black_box(containers::sum_vec(black_box(&values)));
    });
    let addrs = values.iter().map(|x| x as *const u64 as usize);
    let note = format!(
        "neighbours within {NEAR} B: {:.3}",
        containers::neighbour_fraction(addrs, NEAR)
    );
    rows.push(Row::new("Vec<u64>", n, s).with_note(note));

    progress.step("Vec<Box>");
    let boxed: Vec<Box<u64>> = values.iter().map(|&v| Box::new(v)).collect();
    rows.push(boxes_row("Vec<Box<u64>>, fresh heap", &boxed, cfg));
    drop(boxed);
    progress.step("Vec<Box> scattered");
    let boxed = containers::scattered_boxes(&values, 3);
    rows.push(boxes_row("Vec<Box<u64>>, aged heap", &boxed, cfg));
    drop(boxed);

    progress.step("LinkedList");
    let list: std::collections::LinkedList<u64> = values.iter().copied().collect();
    rows.push(list_row("LinkedList<u64>, fresh heap", &list, cfg));
    drop(list);
    progress.step("LinkedList scattered");
    let list = containers::scattered_list(&values, 3);
    rows.push(list_row("LinkedList<u64>, aged heap", &list, cfg));
    progress.finish();
    bar_figure(
        "memory_containers",
        &format!("Summing {n} u64 in three containers"),
        &rows,
        vec![
            "fresh heap: elements allocated in order into an empty heap".into(),
            "aged heap: node-sized blocks were allocated and freed in random order first".into(),
        ],
    )
}

fn boxes_row(label: &str, boxed: &[Box<u64>], cfg: &Config) -> Row {
    let s = m(cfg, || {
        black_box(containers::sum_boxed(black_box(boxed)));
    });
    let addrs = boxed.iter().map(|b| &**b as *const u64 as usize);
    let f = containers::neighbour_fraction(addrs, NEAR);
    Row::new(label, boxed.len(), s).with_note(format!("neighbours within {NEAR} B: {f:.3}"))
}

fn list_row(label: &str, list: &std::collections::LinkedList<u64>, cfg: &Config) -> Row {
    let s = m(cfg, || {
        black_box(containers::sum_list(black_box(list)));
    });
    let addrs = list.iter().map(|x| x as *const u64 as usize);
    let f = containers::neighbour_fraction(addrs, NEAR);
    Row::new(label, list.len(), s).with_note(format!("neighbours within {NEAR} B: {f:.3}"))
}

pub fn jagged_and_permutation(cfg: &Config) -> std::io::Result<()> {
    let rows_n = if cfg.quick { 50_000 } else { 500_000 };
    let jagged = containers::random_rows(rows_n, 32, 5);
    let floats: usize = jagged.iter().map(Vec::len).sum();
    let flat = Flat::from_rows(&jagged);
    let progress = Progress::new(8, "jagged + permutation");
    progress.step("flat sum");
    let flat_sum = m(cfg, || {
        black_box(containers::sum_flat(black_box(&flat)));
    });
    progress.step("jagged sum");
    let jagged_sum = m(cfg, || {
        black_box(containers::sum_jagged(black_box(&jagged)));
    });
    progress.step("flat build");
    let flat_build = m(cfg, || {
        black_box(Flat::from_rows(black_box(&jagged)));
    });
    progress.step("jagged build");
    let jagged_build = m(cfg, || {
        black_box(black_box(&jagged).clone());
    });
    bar_figure(
        "memory_jagged",
        &format!("{rows_n} rows of 0–31 f32: one buffer vs a Vec per row"),
        &[
            Row::new("flat: sum", floats, flat_sum),
            Row::new("jagged: sum", floats, jagged_sum),
            Row::new("flat: build (copy)", floats, flat_build),
            Row::new("jagged: build (clone)", floats, jagged_build),
        ],
        vec![format!("{floats} floats in {rows_n} rows")],
    )?;
    drop((jagged, flat));

    let n = big_u64s(cfg);
    let data: Vec<f32> = (0..n).map(|i| (i % 13) as f32).collect();
    let perm = shuffled(n, 8);
    let mut gathered = Vec::with_capacity(n);
    let mut scattered = vec![0.0f32; n];
    progress.step("sum through");
    let through = m(cfg, || {
        black_box(containers::sum_through(black_box(&data), black_box(&perm)));
    });
    progress.step("gather");
    let gather = m(cfg, || {
        containers::gather(black_box(&data), &perm, &mut gathered)
    });
    progress.step("scatter");
    let scatter = m(cfg, || {
        containers::scatter(black_box(&data), &perm, &mut scattered)
    });
    progress.step("sequential");
    let seq = m(cfg, || {
        black_box(black_box(&gathered).iter().sum::<f32>());
    });
    progress.finish();
    bar_figure(
        "memory_permutation",
        &format!("A permutation of {n} f32: gather through it, or apply it once"),
        &[
            Row::new("sum of the permuted copy", n, seq),
            Row::new("sum through the permutation", n, through),
            Row::new("gather once (out[i] = x[p[i]])", n, gather),
            Row::new("scatter once (out[p[i]] = x[i])", n, scatter),
        ],
        vec![format!("{n} f32 ({} MiB)", (n * 4) >> 20)],
    )
}

pub fn growth_and_scratch(cfg: &Config) -> std::io::Result<()> {
    let n = if cfg.quick { 1_000_000 } else { 10_000_000 };
    let caps = vec_growth::capacities_while_pushing(n);
    let progress = Progress::new(7, "Vec growth + scratch");
    progress.step("push, growing");
    let growing = m(cfg, || {
        black_box(vec_growth::push_growing(black_box(n)));
    });
    progress.step("push, reserved");
    let reserved = m(cfg, || {
        black_box(vec_growth::push_reserved(black_box(n)));
    });
    // Many small vectors: no page faults to hide the copies and the allocator calls.
    let (small_n, small_count) = (100, if cfg.quick { 10_000 } else { 100_000 });
    progress.step("small vecs, growing");
    let small_growing = m(cfg, || {
        for _ in 0..small_count {
            black_box(vec_growth::push_growing(black_box(small_n)));
        }
    });
    progress.step("small vecs, reserved");
    let small_reserved = m(cfg, || {
        for _ in 0..small_count {
            black_box(vec_growth::push_reserved(black_box(small_n)));
        }
    });
    let small_caps = vec_growth::capacities_while_pushing(small_n);
    let iterations = if cfg.quick { 100_000 } else { 1_000_000 };
    progress.step("stack scratch");
    let stack = m(cfg, || {
        black_box(vec_growth::scratch_on_stack(black_box(iterations)));
    });
    progress.step("heap scratch");
    let heap = m(cfg, || {
        black_box(vec_growth::scratch_on_heap(black_box(iterations)));
    });
    progress.step("reused scratch");
    let reused = m(cfg, || {
        black_box(vec_growth::scratch_reused(black_box(iterations)));
    });
    progress.finish();
    bar_figure(
        "memory_vec_growth",
        "Pushing u64 into a Vec: with and without reserving",
        &[
            Row::new("Vec::with_capacity(n), then push", n, reserved),
            Row::new("Vec::new(), then push", n, growing).with_note(format!(
                "{} reallocations; capacities {:?} … {}",
                caps.len() - 1,
                &caps[..6.min(caps.len())],
                caps.last().copied().unwrap_or(0)
            )),
            Row::new(
                &format!("{small_count} Vecs of {small_n}: with_capacity"),
                small_n * small_count,
                small_reserved,
            ),
            Row::new(
                &format!("{small_count} Vecs of {small_n}: Vec::new()"),
                small_n * small_count,
                small_growing,
            )
            .with_note(format!(
                "{} reallocations per Vec; capacities {small_caps:?}",
                small_caps.len() - 1
            )),
        ],
        vec![format!(
            "a Vec of {n} u64 is {} MiB: its pages are first touched while pushing",
            (n * 8) >> 20
        )],
    )?;
    bar_figure(
        "memory_scratch",
        &format!("A 16-float scratch buffer in each of {iterations} iterations"),
        &[
            Row::new("array on the stack", iterations, stack),
            Row::new("one Vec, reused", iterations, reused),
            Row::new("new Vec every iteration", iterations, heap),
        ],
        vec![],
    )
}
