//! Figures about data parallelism and data layout on one machine.

use bench_harness::rng::SplitMix64;
use bench_harness::{LineChart, Series, Stats, black_box, measure};

use super::output::{Chart, Figure, Table, bar_figure, interleaved, row, sig7, subtitle};

fn random_u32(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.next_u32()).collect()
}

fn line_figure(
    name: &'static str,
    description: &'static str,
    chart: LineChart,
    rows: Vec<(String, f64, Stats, f64)>,
    notes: Vec<String>,
) -> Figure {
    let mut csv = Vec::new();
    for (variant, param, stats, rate) in &rows {
        row(&mut csv, variant, *param, stats, *rate);
    }
    Figure {
        name,
        description,
        table: Table::rows(csv),
        chart: Chart::Line(chart),
        notes,
    }
}

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
    bar_figure(
        "uneven",
        "2^18 items whose cost ramps from 1 to 256 hash rounds: static slices vs rayon's work \
         stealing, and uniform work of the same total",
        "Uneven work: static slices vs work stealing",
        "million items per second",
        bars,
        vec![format!(
            "static slices: one per logical CPU ({threads} threads)"
        )],
    )
}

pub fn rayon_chunks() -> Figure {
    use crate::data_parallel::{rayon_sum, rayon_sum_chunked, sequential_sum};
    const N: usize = 1 << 20;
    let data: Vec<u64> = (0..N as u64).collect();
    let mut rows = Vec::new();
    let mut chart = LineChart {
        title: "rayon: time vs chunk size (2^20 items)".into(),
        subtitle: subtitle(),
        x_label: "items per chunk".into(),
        y_label: "milliseconds".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    for rounds in [1u32, 64] {
        let mut series = Series::new(&format!("chunks, {rounds} round(s)"));
        let mut seq_series = Series::new(&format!("sequential, {rounds}"));
        let mut auto_series = Series::new(&format!("par_iter, {rounds}"));
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
            series.point_with_spread(chunk as f64, s.median * 1e3, s.p10 * 1e3, s.p90 * 1e3);
            seq_series.point(chunk as f64, seq.median * 1e3);
            auto_series.point(chunk as f64, auto.median * 1e3);
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
        chart.series.extend([series, seq_series, auto_series]);
    }
    line_figure(
        "rayon_chunks",
        "Sum of a hash over 2^20 items with rayon par_chunks at chunk sizes 1..2^20, vs sequential and par_iter",
        chart,
        rows,
        vec!["rate column: items per second".into()],
    )
}

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
    bar_figure(
        "branchless",
        "Keep the values below the median of 4 Mi u32: branchy vs branchless, random vs sorted input",
        "Branchy vs branchless filter (half the values kept)",
        "million elements per second",
        bars,
        vec![],
    )
}

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
    bar_figure(
        "simd",
        "Sum of 4 Mi f32 (16 MiB, L3-or-RAM resident): one accumulator, four lanes in one chain, eight lanes in two",
        "Auto-vectorisation: one running total vs eight lanes",
        "billion elements per second",
        vec![
            ("one total (scalar)".into(), scalar, rate(&scalar)),
            ("4 lanes, one chain".into(), one_chain, rate(&one_chain)),
            ("8 lanes (vectorised)".into(), lanes, rate(&lanes)),
        ],
        vec!["default target (x86-64 baseline: SSE2), no -C target-cpu=native".into()],
    )
}

pub fn sort() -> Figure {
    use crate::sort::{sort_parallel, sort_sequential};
    let mut chart = LineChart {
        title: "Sorting u64: sort_unstable vs rayon par_sort_unstable".into(),
        subtitle: subtitle(),
        x_label: "elements".into(),
        y_label: "million elements per second".into(),
        log_x: true,
        ..Default::default()
    };
    let mut rows = Vec::new();
    let (mut seq_s, mut par_s) = (
        Series::new("sort_unstable"),
        Series::new("par_sort_unstable"),
    );
    for n in [1_000usize, 10_000, 100_000, 1_000_000, 4_000_000] {
        let base: Vec<u64> = random_u32(n, 3).into_iter().map(u64::from).collect();
        for (name, f, series) in [
            ("sequential", sort_sequential as fn(&mut [u64]), &mut seq_s),
            ("parallel", sort_parallel, &mut par_s),
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
            let rate = n as f64 / s.median / 1e6;
            series.point_with_spread(
                n as f64,
                rate,
                n as f64 / s.p90 / 1e6,
                n as f64 / s.p10 / 1e6,
            );
            rows.push((name.to_owned(), n as f64, s, rate * 1e6));
        }
    }
    chart.series = vec![seq_s, par_s];
    line_figure(
        "sort",
        "Sorting random u64 (values < 2^32): sequential vs rayon parallel unstable sort",
        chart,
        rows,
        vec!["rate column: elements per second; the copy of the input is not timed".into()],
    )
}

pub fn csr_vs_dense() -> Figure {
    use crate::sparse::{Csr, dense_mat_vec, random_matrix};
    const N: usize = 2048;
    let x: Vec<f32> = (0..N).map(|i| (i % 7) as f32).collect();
    let mut y = vec![0.0f32; N];
    let mut chart = LineChart {
        title: "Mat-vec 2048×2048: CSR vs dense, by density".into(),
        subtitle: subtitle(),
        x_label: "fraction of non-zero entries".into(),
        y_label: "milliseconds".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let (mut dense_s, mut csr_s) = (Series::new("dense"), Series::new("CSR"));
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
        dense_s.point_with_spread(density, d.median * 1e3, d.p10 * 1e3, d.p90 * 1e3);
        csr_s.point_with_spread(density, c.median * 1e3, c.p10 * 1e3, c.p90 * 1e3);
        rows.push(("dense".to_owned(), density, d, 1.0 / d.median));
        rows.push(("csr".to_owned(), density, c, 1.0 / c.median));
    }
    chart.series = vec![dense_s, csr_s];
    line_figure(
        "csr_vs_dense",
        "y = A·x for a 2048×2048 f32 matrix at densities 0.1%..100%, CSR vs dense (one thread)",
        chart,
        rows,
        vec!["rate column: products per second".into()],
    )
}

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
    bar_figure(
        "aos_soa",
        "Total mass of 2^20 particles (64-byte structs): array of structs vs struct of arrays",
        "AoS vs SoA: summing one field of 2^20 particles",
        "million particles per second",
        vec![
            ("array of structs".into(), a, rate(&a)),
            ("struct of arrays".into(), s, rate(&s)),
        ],
        vec![],
    )
}

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
    bar_figure(
        "bump",
        "Build, walk and free a linked list of 2^20 nodes: one Box per node vs a bump arena",
        "Bump arena vs one Box per node (2^20-node list)",
        "million nodes per second",
        vec![
            ("Box per node".into(), b, rate(&b)),
            ("bump arena".into(), a, rate(&a)),
        ],
        vec!["the global allocator is the system one (glibc malloc)".into()],
    )
}

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
    bar_figure(
        "softmax",
        "Softmax of 2^20 f32: max pass + sum pass + normalise, vs online max-and-sum + normalise",
        "Softmax: separate max pass vs online max-and-sum",
        "million elements per second",
        vec![
            ("max, then sum (3 passes)".into(), two, rate(&two)),
            ("online (2 passes)".into(), one, rate(&one)),
        ],
        vec!["one thread; the row fits in L2/L3, so the saved pass is cheap here".into()],
    )
}

/// The Monte Carlo estimate of π: its error against the sample count (the root-mean-square
/// error over 16 seeds, beside the standard error sqrt(π(4 − π)/n) that theory predicts), and
/// per-task generators against one generator behind a `Mutex`, on 1, 2 and all threads.
pub fn monte_carlo(quick: bool) -> Vec<Figure> {
    use crate::monte_carlo::{estimate_pi, estimate_pi_shared_rng};
    use std::f64::consts::PI;
    const SEEDS: u64 = 16;
    let top = if quick { 5 } else { 7 };
    /// One sample count of `parallel_monte_carlo_error.csv`.
    #[derive(serde::Serialize)]
    struct ErrorRow {
        samples: u64,
        seeds: u64,
        rms_error: f64,
        theory: f64,
    }
    let mut error_rows = Vec::new();
    let mut chart = LineChart {
        title: "Monte Carlo π: error against the number of samples".into(),
        subtitle: format!("root-mean-square error over {SEEDS} seeds; exact, not timed"),
        x_label: "samples n".into(),
        y_label: "error |estimate − π|".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let (mut measured, mut theory) = (Series::new("measured (RMS)"), Series::new("√(π(4−π)/n)"));
    for half_decades in 6..=2 * top {
        let n = 10f64.powf(half_decades as f64 / 2.0).round() as u64;
        let mean_square = (0..SEEDS)
            .map(|seed| (estimate_pi(n, seed) - PI).powi(2))
            .sum::<f64>()
            / SEEDS as f64;
        let (rms, predicted) = (mean_square.sqrt(), (PI * (4.0 - PI) / n as f64).sqrt());
        measured.point(n as f64, rms);
        theory.point(n as f64, predicted);
        error_rows.push(ErrorRow {
            samples: n,
            seeds: SEEDS,
            rms_error: sig7(rms),
            theory: sig7(predicted),
        });
    }
    chart.series.extend([measured, theory]);
    let error = Figure {
        name: "monte_carlo_error",
        description: "Monte Carlo estimate of π: RMS error over 16 seeds against the sample count, \
                      and the standard error theory predicts",
        table: Table::rows(error_rows),
        chart: Chart::Line(chart),
        notes: vec!["counts, not times: the same on any machine for the same code".into()],
    };
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
    let timing = bar_figure(
        "monte_carlo_threads",
        "Monte Carlo π: one generator per task against one shared behind a Mutex, 1, 2 and all \
         logical CPUs",
        "Monte Carlo π: per-task generators vs one shared generator",
        "million samples per second",
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
    let (nodes, side) = if quick {
        (1 << 14, 128)
    } else {
        (1 << 21, 1024)
    };
    let graphs = [
        ("random (degree 8)", random_graph(nodes, 8, 7)),
        ("grid", grid_graph(side)),
    ];
    /// One level of one graph in `parallel_bfs_frontier_sizes.csv`.
    #[derive(serde::Serialize)]
    struct FrontierRow {
        graph: &'static str,
        level: usize,
        frontier: usize,
    }
    let mut csv = Vec::new();
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
    for (name, graph) in &graphs {
        let sizes = frontier_sizes(&bfs_sequential(graph, 0));
        let mut series = Series::new(name);
        for (level, size) in sizes.iter().enumerate() {
            csv.push(FrontierRow {
                graph: name,
                level,
                frontier: *size,
            });
            series.point((level + 1) as f64, *size as f64);
        }
        chart.series.push(series);
    }
    Figure {
        name: "bfs_frontier_sizes",
        description: "Frontier size per BFS level: a random degree-8 graph (wide) and a grid (deep)",
        table: Table::rows(csv),
        chart: Chart::Line(chart),
        notes: vec!["counts, not times: the same on any machine for the same code".into()],
    }
}
