//! Figures about data parallelism and data layout on one machine.

use bench_harness::rng::SplitMix64;
use bench_harness::{LineChart, Series, Stats, black_box, measure};
use serde::{Deserialize, Serialize};

use super::output::{BarSpec, Figure, TimingRow, interleaved, rate_bars, row, sig7};

fn random_u32(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.next_u32()).collect()
}

/// A line figure of timing rows: `chart` draws them.
fn line_figure(
    name: &'static str,
    description: &'static str,
    chart: fn(&[TimingRow], &str) -> String,
    rows: Vec<(String, f64, Stats, f64)>,
    notes: Vec<String>,
) -> Figure {
    let mut csv = Vec::new();
    for (variant, param, stats, rate) in &rows {
        row(&mut csv, variant, *param, stats, *rate);
    }
    Figure::new(name, description, csv, chart, notes)
}

/// The rows of one variant, in the order measured.
fn of_variant<'a>(rows: &'a [TimingRow], variant: &'a str) -> impl Iterator<Item = &'a TimingRow> {
    rows.iter().filter(move |r| r.variant == variant)
}

pub const UNEVEN: BarSpec = rate_bars(
    "uneven",
    "2^18 items whose cost ramps from 1 to 256 hash rounds: static slices vs rayon's work \
     stealing, and uniform work of the same total",
    "Uneven work: static slices vs work stealing",
    "million items per second",
);

/// Uneven work (the ramp: the last items cost 256× the first): equal static slices against
/// rayon's work stealing, with uniform work of the same total for comparison.
pub fn uneven() -> Figure {
    use crate::data_parallel::{
        crossbeam_static_sum, rayon_sum, rayon_sum_ramp, sequential_sum_ramp, static_sum_ramp,
    };
    const N: usize = 1 << 18;
    let data: Vec<u64> = (0..N as u64).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The ramp averages about 129 rounds per item; uniform work of 129 rounds costs the same.
    const MEAN_ROUNDS: u32 = 129;
    let mut variants: [&mut dyn FnMut(); 5] = [
        &mut || {
            black_box(sequential_sum_ramp(black_box(&data)));
        },
        &mut || {
            black_box(static_sum_ramp(black_box(&data), threads));
        },
        &mut || {
            black_box(rayon_sum_ramp(black_box(&data)));
        },
        &mut || {
            black_box(crossbeam_static_sum(black_box(&data), threads, MEAN_ROUNDS));
        },
        &mut || {
            black_box(rayon_sum(black_box(&data), MEAN_ROUNDS));
        },
    ];
    let stats = interleaved(7, &mut variants);
    let labels = [
        "uneven: sequential",
        "uneven: static slices",
        "uneven: rayon (stealing)",
        "uniform: static slices",
        "uniform: rayon (stealing)",
    ];
    let bars = labels
        .iter()
        .zip(&stats)
        .map(|(l, s)| ((*l).to_owned(), *s, N as f64 / s.median / 1e6))
        .collect();
    UNEVEN.figure(
        bars,
        vec![format!(
            "static slices: one per logical CPU ({threads} threads)"
        )],
    )
}

const RAYON_ROUNDS: [u32; 2] = [1, 64];

/// Time against chunk size, per hash-round count, with sequential and `par_iter` as flat lines.
pub fn rayon_chunks_chart(rows: &[TimingRow], subtitle: &str) -> String {
    let mut chart = LineChart {
        title: "rayon: time vs chunk size (2^20 items)".into(),
        subtitle: subtitle.to_owned(),
        x_label: "items per chunk".into(),
        y_label: "milliseconds".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let median_ms = |variant: &str| of_variant(rows, variant).next().map(|r| r.median_s * 1e3);
    for rounds in RAYON_ROUNDS {
        let mut series = Series::new(&format!("chunks, {rounds} round(s)"));
        let mut seq_series = Series::new(&format!("sequential, {rounds}"));
        let mut auto_series = Series::new(&format!("par_iter, {rounds}"));
        let seq = median_ms(&format!("sequential_r{rounds}"));
        let auto = median_ms(&format!("par_iter_r{rounds}"));
        for r in of_variant(rows, &format!("chunked_r{rounds}")) {
            series.point_with_spread(r.param, r.median_s * 1e3, r.p10_s * 1e3, r.p90_s * 1e3);
            seq_series.points.extend(seq.map(|y| (r.param, y, None)));
            auto_series.points.extend(auto.map(|y| (r.param, y, None)));
        }
        chart.series.extend([series, seq_series, auto_series]);
    }
    chart.to_svg()
}

pub fn rayon_chunks() -> Figure {
    use crate::data_parallel::{rayon_sum, rayon_sum_chunked, sequential_sum};
    const N: usize = 1 << 20;
    let data: Vec<u64> = (0..N as u64).collect();
    let mut rows = Vec::new();
    for rounds in RAYON_ROUNDS {
        let seq = measure(1, 5, || {
            black_box(sequential_sum(&data, rounds));
        });
        let auto = measure(1, 5, || {
            black_box(rayon_sum(&data, rounds));
        });
        for chunk in [1usize, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262_144, N] {
            let s = measure(1, 5, || {
                black_box(rayon_sum_chunked(&data, chunk, rounds));
            });
            rows.push((
                format!("chunked_r{rounds}"),
                chunk as f64,
                s,
                N as f64 / s.median,
            ));
        }
        rows.push((
            format!("sequential_r{rounds}"),
            0.0,
            seq,
            N as f64 / seq.median,
        ));
        rows.push((
            format!("par_iter_r{rounds}"),
            0.0,
            auto,
            N as f64 / auto.median,
        ));
    }
    line_figure(
        "rayon_chunks",
        "Sum of a hash over 2^20 items with rayon par_chunks at chunk sizes 1..2^20, vs sequential and par_iter",
        rayon_chunks_chart,
        rows,
        vec!["rate column: items per second".into()],
    )
}

pub const BRANCHLESS: BarSpec = rate_bars(
    "branchless",
    "Keep the values below the median of 4 Mi u32: branchy vs branchless, random vs sorted input",
    "Branchy vs branchless filter (half the values kept)",
    "million elements per second",
);

pub fn branchless() -> Figure {
    use crate::branchless::{filter_branchless, filter_branchy};
    const N: usize = 4 << 20;
    let random: Vec<u32> = random_u32(N, 7);
    let mut sorted = random.clone();
    sorted.sort_unstable();
    let threshold = u32::MAX / 2;
    let mut out = Vec::with_capacity(N);
    let mut bars = Vec::new();
    for (data_name, data) in [("random", &random), ("sorted", &sorted)] {
        for (f_name, f) in [
            ("branchy", filter_branchy as fn(&[u32], u32, &mut Vec<u32>)),
            ("branchless", filter_branchless),
        ] {
            let s = measure(1, 7, || {
                f(data, threshold, &mut out);
                black_box(out.len());
            });
            bars.push((
                format!("{f_name}, {data_name}"),
                s,
                N as f64 / s.median / 1e6,
            ));
        }
    }
    BRANCHLESS.figure(bars, vec![])
}

pub const SIMD: BarSpec = rate_bars(
    "simd",
    "Sum of 4 Mi f32 (16 MiB, L3-or-RAM resident): one accumulator, four lanes in one chain, eight lanes in two",
    "Auto-vectorisation: one running total vs eight lanes",
    "billion elements per second",
);

pub fn simd() -> Figure {
    use crate::simd::{sum_four_lanes_one_chain, sum_lanes, sum_scalar};
    const N: usize = 4 << 20;
    let data: Vec<f32> = (0..N).map(|i| (i % 13) as f32 * 0.25).collect();
    let scalar = measure(2, 9, || {
        black_box(sum_scalar(black_box(&data)));
    });
    let lanes = measure(2, 9, || {
        black_box(sum_lanes(black_box(&data)));
    });
    let one_chain = measure(2, 9, || {
        black_box(sum_four_lanes_one_chain(black_box(&data)));
    });
    let rate = |s: &Stats| N as f64 / s.median / 1e9;
    SIMD.figure(
        vec![
            ("one total (scalar)".into(), scalar, rate(&scalar)),
            ("4 lanes, one chain".into(), one_chain, rate(&one_chain)),
            ("8 lanes (vectorised)".into(), lanes, rate(&lanes)),
        ],
        vec!["default target (x86-64 baseline: SSE2), no -C target-cpu=native".into()],
    )
}

/// Million elements per second against the length, sequential and parallel.
pub fn sort_chart(rows: &[TimingRow], subtitle: &str) -> String {
    let mut chart = LineChart {
        title: "Sorting u64: sort_unstable vs rayon par_sort_unstable".into(),
        subtitle: subtitle.to_owned(),
        x_label: "elements".into(),
        y_label: "million elements per second".into(),
        log_x: true,
        ..Default::default()
    };
    for (variant, name) in [
        ("sequential", "sort_unstable"),
        ("parallel", "par_sort_unstable"),
    ] {
        let mut series = Series::new(name);
        for r in of_variant(rows, variant) {
            let n = r.param;
            series.point_with_spread(
                n,
                n / r.median_s / 1e6,
                n / r.p90_s / 1e6,
                n / r.p10_s / 1e6,
            );
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

pub fn sort() -> Figure {
    use crate::sort::{sort_parallel, sort_sequential};
    let mut rows = Vec::new();
    for n in [1_000usize, 10_000, 100_000, 1_000_000, 4_000_000] {
        let base: Vec<u64> = random_u32(n, 3).into_iter().map(u64::from).collect();
        for (name, f) in [
            ("sequential", sort_sequential as fn(&mut [u64])),
            ("parallel", sort_parallel),
        ] {
            let samples = if n >= 1_000_000 { 3 } else { 9 };
            let mut times = Vec::new();
            for _ in 0..=samples {
                let mut v = base.clone();
                let t = std::time::Instant::now();
                f(&mut v);
                times.push(t.elapsed().as_secs_f64());
                black_box(&v);
            }
            let s = Stats::from_seconds(&times[1..]).expect("non-empty");
            rows.push((name.to_owned(), n as f64, s, n as f64 / s.median));
        }
    }
    line_figure(
        "sort",
        "Sorting random u64 (values < 2^32): sequential vs rayon parallel unstable sort",
        sort_chart,
        rows,
        vec!["rate column: elements per second; the copy of the input is not timed".into()],
    )
}

/// Milliseconds per product against the density, dense and CSR.
pub fn csr_vs_dense_chart(rows: &[TimingRow], subtitle: &str) -> String {
    let mut chart = LineChart {
        title: "Mat-vec 2048×2048: CSR vs dense, by density".into(),
        subtitle: subtitle.to_owned(),
        x_label: "fraction of non-zero entries".into(),
        y_label: "milliseconds".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    for (variant, name) in [("dense", "dense"), ("csr", "CSR")] {
        let mut series = Series::new(name);
        for r in of_variant(rows, variant) {
            series.point_with_spread(r.param, r.median_s * 1e3, r.p10_s * 1e3, r.p90_s * 1e3);
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

pub fn csr_vs_dense() -> Figure {
    use crate::sparse::{Csr, dense_mat_vec, random_matrix};
    const N: usize = 2048;
    let x: Vec<f32> = (0..N).map(|i| (i % 7) as f32).collect();
    let mut y = vec![0.0f32; N];
    let mut rows = Vec::new();
    for density in [0.001, 0.003, 0.01, 0.03, 0.1, 0.2, 0.3, 0.5, 1.0] {
        let a = random_matrix(N, N, density, 11);
        let csr = Csr::from_dense(&a, N, N).expect("sizes match");
        let d = measure(2, 9, || {
            dense_mat_vec(black_box(&a), N, &x, &mut y);
            black_box(&y);
        });
        let c = measure(2, 9, || {
            csr.mat_vec(black_box(&x), &mut y);
            black_box(&y);
        });
        rows.push(("dense".to_owned(), density, d, 1.0 / d.median));
        rows.push(("csr".to_owned(), density, c, 1.0 / c.median));
    }
    line_figure(
        "csr_vs_dense",
        "y = A·x for a 2048×2048 f32 matrix at densities 0.1%..100%, CSR vs dense (one thread)",
        csr_vs_dense_chart,
        rows,
        vec!["rate column: products per second".into()],
    )
}

pub const AOS_SOA: BarSpec = rate_bars(
    "aos_soa",
    "Total mass of 2^20 particles (64-byte structs): array of structs vs struct of arrays",
    "AoS vs SoA: summing one field of 2^20 particles",
    "million particles per second",
);

pub fn aos_soa() -> Figure {
    use crate::specialisations::aos_soa::*;
    const N: usize = 1 << 20;
    let aos = particles(N);
    let soa = Particles::from_aos(&aos);
    let a = measure(2, 9, || {
        black_box(total_mass_aos(black_box(&aos)));
    });
    let s = measure(2, 9, || {
        black_box(total_mass_soa(black_box(&soa)));
    });
    let rate = |st: &Stats| N as f64 / st.median / 1e6;
    AOS_SOA.figure(
        vec![
            ("array of structs".into(), a, rate(&a)),
            ("struct of arrays".into(), s, rate(&s)),
        ],
        vec![],
    )
}

pub const BUMP: BarSpec = rate_bars(
    "bump",
    "Build, walk and free a linked list of 2^20 nodes: one Box per node vs a bump arena",
    "Bump arena vs one Box per node (2^20-node list)",
    "million nodes per second",
);

pub fn bump() -> Figure {
    use crate::specialisations::bump::{list_sum_box, list_sum_bump};
    const N: u64 = 1 << 20;
    let b = measure(1, 7, || {
        black_box(list_sum_box(black_box(N)));
    });
    let a = measure(1, 7, || {
        black_box(list_sum_bump(black_box(N)));
    });
    let rate = |st: &Stats| N as f64 / st.median / 1e6;
    BUMP.figure(
        vec![
            ("Box per node".into(), b, rate(&b)),
            ("bump arena".into(), a, rate(&a)),
        ],
        vec!["the global allocator is the system one (glibc malloc)".into()],
    )
}

pub const SOFTMAX: BarSpec = rate_bars(
    "softmax",
    "Softmax of 2^20 f32: max pass + sum pass + normalise, vs online max-and-sum + normalise",
    "Softmax: separate max pass vs online max-and-sum",
    "million elements per second",
);

pub fn softmax() -> Figure {
    use crate::specialisations::online_softmax::{softmax_online, softmax_three_pass};
    const N: usize = 1 << 20;
    let x: Vec<f32> = (0..N).map(|i| ((i * 37) % 101) as f32 * 0.1).collect();
    let two = measure(1, 7, || {
        black_box(softmax_three_pass(black_box(&x)));
    });
    let one = measure(1, 7, || {
        black_box(softmax_online(black_box(&x)));
    });
    let rate = |st: &Stats| N as f64 / st.median / 1e6;
    SOFTMAX.figure(
        vec![
            ("max, then sum (3 passes)".into(), two, rate(&two)),
            ("online (2 passes)".into(), one, rate(&one)),
        ],
        vec!["one thread; the row fits in L2/L3, so the saved pass is cheap here".into()],
    )
}

/// One sample count of `parallel_monte_carlo_error.csv`.
#[derive(Serialize, Deserialize)]
pub struct ErrorRow {
    samples: u64,
    seeds: u64,
    rms_error: f64,
    theory: f64,
}

/// The measured error and the predicted one against the sample count (exact, not timed).
pub fn monte_carlo_error_chart(rows: &[ErrorRow]) -> String {
    let seeds = rows.first().map_or(0, |r| r.seeds);
    let mut chart = LineChart {
        title: "Monte Carlo π: error against the number of samples".into(),
        subtitle: format!("root-mean-square error over {seeds} seeds; exact, not timed"),
        x_label: "samples n".into(),
        y_label: "error |estimate − π|".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let (mut measured, mut theory) = (Series::new("measured (RMS)"), Series::new("√(π(4−π)/n)"));
    for r in rows {
        measured.point(r.samples as f64, r.rms_error);
        theory.point(r.samples as f64, r.theory);
    }
    chart.series.extend([measured, theory]);
    chart.to_svg()
}

pub const MONTE_CARLO_THREADS: BarSpec = rate_bars(
    "monte_carlo_threads",
    "Monte Carlo π: one generator per task against one shared behind a Mutex, 1, 2 and all \
     logical CPUs",
    "Monte Carlo π: per-task generators vs one shared generator",
    "million samples per second",
);

/// The Monte Carlo estimate of π: its error against the sample count (the root-mean-square
/// error over 16 seeds, beside the standard error sqrt(π(4 − π)/n) that theory predicts), and
/// per-task generators against one generator behind a `Mutex`, on 1, 2 and all threads.
pub fn monte_carlo(quick: bool) -> Vec<Figure> {
    use crate::monte_carlo::{estimate_pi, estimate_pi_shared_rng};
    use std::f64::consts::PI;
    const SEEDS: u64 = 16;
    let top = if quick { 5 } else { 7 };
    let mut error_rows = Vec::new();
    for half_decades in 6..=2 * top {
        let n = 10f64.powf(half_decades as f64 / 2.0).round() as u64;
        let mean_square = (0..SEEDS)
            .map(|seed| (estimate_pi(n, seed) - PI).powi(2))
            .sum::<f64>()
            / SEEDS as f64;
        let (rms, predicted) = (mean_square.sqrt(), (PI * (4.0 - PI) / n as f64).sqrt());
        error_rows.push(ErrorRow {
            samples: n,
            seeds: SEEDS,
            rms_error: sig7(rms),
            theory: sig7(predicted),
        });
    }
    let error = Figure::new(
        "monte_carlo_error",
        "Monte Carlo estimate of π: RMS error over 16 seeds against the sample count, and the \
         standard error theory predicts",
        error_rows,
        |rows, _| monte_carlo_error_chart(rows),
        vec!["counts, not times: the same on any machine for the same code".into()],
    );
    let n: u64 = if quick { 1 << 16 } else { 1 << 21 };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mut threads = vec![1, 2, cores];
    threads.dedup();
    let mut bars = Vec::new();
    for &t in &threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .expect("a thread pool of a few threads");
        let stats = pool.install(|| {
            interleaved(
                5,
                &mut [
                    &mut || {
                        black_box(estimate_pi(black_box(n), 1));
                    },
                    &mut || {
                        black_box(estimate_pi_shared_rng(black_box(n), 1));
                    },
                ],
            )
        });
        for (label, s) in ["per-task generator", "shared Mutex generator"]
            .iter()
            .zip(stats)
        {
            bars.push((
                format!("{label}, {t} threads"),
                s,
                n as f64 / s.median / 1e6,
            ));
        }
    }
    let timing = MONTE_CARLO_THREADS.figure(
        bars,
        vec![format!(
            "{n} samples per estimate, 5 samples interleaved after 1 warm-up round, rayon pools of \
             {threads:?} threads"
        )],
    );
    vec![error, timing]
}

/// The frontier (nodes first reached) at each level of a BFS from node 0, for the two graphs the
/// BFS timing uses: counts, not times. The same graphs as the GPU-histogram-and-BFS example.
pub fn bfs_frontiers(quick: bool) -> Figure {
    use crate::graph::{bfs_sequential, frontier_sizes, grid_graph, random_graph};
    let (nodes, side) = bfs_sizes(quick);
    let graphs = [
        ("random (degree 8)", random_graph(nodes, 8, 7)),
        ("grid", grid_graph(side)),
    ];
    let mut csv = Vec::new();
    for (name, graph) in &graphs {
        let sizes = frontier_sizes(&bfs_sequential(graph, 0));
        for (level, size) in sizes.iter().enumerate() {
            csv.push(FrontierRow {
                graph: (*name).to_owned(),
                level,
                frontier: *size,
            });
        }
    }
    Figure::new(
        "bfs_frontier_sizes",
        "Frontier size per BFS level: a random degree-8 graph (wide) and a grid (deep)",
        csv,
        |rows, _| bfs_frontiers_chart(rows),
        vec!["counts, not times: the same on any machine for the same code".into()],
    )
}

/// The random graph's node count and the grid's side: the full run's, or `--quick`'s.
fn bfs_sizes(quick: bool) -> (usize, usize) {
    if quick {
        (1 << 14, 128)
    } else {
        (1 << 21, 1024)
    }
}

/// One level of one graph in `parallel_bfs_frontier_sizes.csv`.
#[derive(Serialize, Deserialize)]
pub struct FrontierRow {
    graph: String,
    level: usize,
    frontier: usize,
}

/// Frontier size per level, one line per graph. The grid is connected, so its frontiers add up
/// to side²: that tells which size was measured, and so the random graph's node count.
pub fn bfs_frontiers_chart(rows: &[FrontierRow]) -> String {
    let grid_nodes: usize = rows
        .iter()
        .filter(|r| r.graph == "grid")
        .map(|r| r.frontier)
        .sum();
    let (nodes, side) = [false, true]
        .map(bfs_sizes)
        .into_iter()
        .find(|(_, side)| side * side == grid_nodes)
        .unwrap_or_else(|| {
            let reached = rows
                .iter()
                .filter(|r| r.graph != "grid")
                .map(|r| r.frontier);
            (reached.sum(), grid_nodes.isqrt())
        });
    // Log x as well: the random graph's 11 levels and the grid's 2047 share one chart.
    let mut chart = LineChart {
        title: "BFS frontier size per level".into(),
        subtitle: format!(
            "random graph: {nodes} nodes; grid: {side} × {side}; exact counts, not timed"
        ),
        x_label: "level + 1 (level 0 is node 0 alone)".into(),
        y_label: "nodes in the frontier".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let mut graphs: Vec<&str> = Vec::new();
    for r in rows {
        if !graphs.contains(&r.graph.as_str()) {
            graphs.push(&r.graph);
        }
    }
    for name in graphs {
        let mut series = Series::new(name);
        for r in rows.iter().filter(|r| r.graph == name) {
            series.point((r.level + 1) as f64, r.frontier as f64);
        }
        chart.series.push(series);
    }
    chart.to_svg()
}
