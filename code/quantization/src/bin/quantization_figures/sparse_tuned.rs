//! CPU time of `x · W` for pruned weights, CSR and 2:4 against a tuned dense product (the
//! packed FMA micro-kernel of `computational_graphs`, column panels spread over rayon), at every
//! thread count from 1 to the machine's logical CPUs.

use bench_harness::{
    Csv, FigureArgs, LineChart, MachineInfo, Series, Sidecar, figures_dir, measure,
};
use computational_graphs::cpu_matmul::packed_fma;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use quantization::prune::{prune_2_4, prune_magnitude};
use quantization::sparse::{Csr, Sparse24, Weights};
use rayon::prelude::*;

use crate::output::figure_name;

const SPARSITIES: [f64; 7] = [0.5, 0.75, 0.875, 0.95, 0.98, 0.99, 0.995];
/// Columns per panel of the tuned dense product: 16 panels of a 2048-wide layer.
const PANEL: usize = 128;

// ANCHOR: tuned_dense
/// W cut into column panels, each stored row-major (k × PANEL), so that every rayon task runs
/// the packed micro-kernel on its own panel: with only 64 rows in x, splitting the rows would
/// leave most threads idle.
pub(super) struct PanelledDense {
    k: usize,
    panels: Vec<Vec<f32>>,
}

impl PanelledDense {
    pub(super) fn new(w: &Tensor2D) -> Self {
        let (k, n) = w.shape();
        let panels = (0..n)
            .step_by(PANEL)
            .map(|j0| {
                let cols = PANEL.min(n - j0);
                (0..k)
                    .flat_map(|r| &w.data()[r * n + j0..r * n + j0 + cols])
                    .copied()
                    .collect()
            })
            .collect();
        Self { k, panels }
    }

    /// Each panel's m × PANEL block of the output.
    pub(super) fn matmul(&self, x: &Tensor2D) -> Vec<Vec<f32>> {
        let m = x.rows();
        self.panels
            .par_iter()
            .map(|p| {
                let cols = p.len() / self.k;
                let mut out = vec![0.0; m * cols];
                packed_fma(x.data(), p, &mut out, m, self.k, cols);
                out
            })
            .collect()
    }
}
// ANCHOR_END: tuned_dense

/// The panels' blocks put back into one m×n matrix (for the correctness check only).
fn assemble(blocks: &[Vec<f32>], m: usize, n: usize) -> Vec<f32> {
    let mut out = vec![0.0; m * n];
    for (b, block) in blocks.iter().enumerate() {
        let cols = block.len() / m;
        for r in 0..m {
            out[r * n + b * PANEL..][..cols].copy_from_slice(&block[r * cols..(r + 1) * cols]);
        }
    }
    out
}

pub(super) fn thread_counts(quick: bool) -> Vec<usize> {
    let cpus = MachineInfo::detect().logical_cpus.max(1);
    let mut counts: Vec<usize> = [1, 2, 4, 8, 16, 32, 64]
        .into_iter()
        .filter(|&t| t < cpus)
        .collect();
    counts.push(cpus);
    if quick {
        counts.retain(|&t| t == 1 || t == cpus);
    }
    counts
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let (m, k, n) = if args.quick {
        (16, 256, 256)
    } else {
        (64, 2048, 2048)
    };
    let mut rng = SplitMix64::new(3);
    let (x, w) = (
        Tensor2D::random(m, k, 1.0, &mut rng),
        Tensor2D::random(k, n, 1.0, &mut rng),
    );
    let tuned = PanelledDense::new(&w);
    let simple = Weights::dense(&w);
    let mut layouts: Vec<(String, f64, Weights)> = vec![(
        "2:4".into(),
        0.5,
        Weights::Sparse24(Sparse24::from_pruned(&prune_2_4(&w)?)?),
    )];
    for s in SPARSITIES {
        let csr = Weights::Csr(Csr::from_dense(&prune_magnitude(&w, s)));
        layouts.push(("CSR".into(), s, csr));
    }
    let gap = assemble(&tuned.matmul(&x), m, n)
        .iter()
        .zip(simple.matmul(&x).data())
        .fold(0.0f32, |g, (a, b)| g.max((a - b).abs()));
    anyhow::ensure!(
        gap < 1e-2,
        "tuned dense product differs from the simple one by {gap}"
    );

    let samples = if args.quick { 3 } else { 7 };
    let mut csv = Csv::new(&[
        "threads", "layout", "sparsity", "median_s", "p10_s", "p90_s",
    ]);
    let counts = thread_counts(args.quick);
    let all = *counts.last().expect("at least one thread count");
    let mut by_sparsity: Vec<Series> = [
        "dense, packed FMA (tuned)",
        "dense, one dot per output",
        "CSR",
        "2:4",
    ]
    .map(Series::new)
    .into();
    let mut scaling: Vec<Series> = [
        "dense, packed FMA",
        "dense, one dot per output",
        "CSR 50 %",
        "CSR 95 %",
        "2:4",
    ]
    .map(Series::new)
    .into();
    let mut one_thread = [0.0f64; 5];
    for &threads in &counts {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let mut row = |label: &str, sparsity: f64, f: &mut (dyn FnMut() + Send)| {
            let st = pool.install(|| measure(1, samples, f));
            csv.row(&[
                threads.to_string(),
                label.into(),
                sparsity.to_string(),
                format!("{:.6e}", st.median),
                format!("{:.6e}", st.p10),
                format!("{:.6e}", st.p90),
            ]);
            st
        };
        let mut times = Vec::new();
        times.push(row("dense packed", 0.0, &mut || {
            bench_harness::black_box(tuned.matmul(&x));
        }));
        times.push(row("dense dot", 0.0, &mut || {
            bench_harness::black_box(simple.matmul(&x));
        }));
        for (label, s, weights) in &layouts {
            times.push(row(label, *s, &mut || {
                bench_harness::black_box(weights.matmul(&x));
            }));
        }
        // times: dense packed, dense dot, 2:4, then CSR at each sparsity in order.
        let csr_at = |s: f64| 3 + SPARSITIES.iter().position(|&v| v == s).expect("listed");
        let picks = [0, 1, csr_at(0.5), csr_at(0.95), 2];
        for (i, &p) in picks.iter().enumerate() {
            if threads == 1 {
                one_thread[i] = times[p].median;
            }
            scaling[i].point(threads as f64, one_thread[i] / times[p].median);
        }
        if threads == all {
            for (series, t) in [(0, &times[0]), (1, &times[1])] {
                for s in [0.5, 0.995] {
                    by_sparsity[series].point(s * 100.0, t.median * 1e3);
                }
            }
            by_sparsity[3].point_with_spread(
                50.0,
                times[2].median * 1e3,
                times[2].p10 * 1e3,
                times[2].p90 * 1e3,
            );
            for (j, s) in SPARSITIES.iter().enumerate() {
                let t = &times[3 + j];
                by_sparsity[2].point_with_spread(
                    s * 100.0,
                    t.median * 1e3,
                    t.p10 * 1e3,
                    t.p90 * 1e3,
                );
            }
        }
        eprintln!("sparse-tuned-cpu: {threads} threads done");
    }
    let name = figure_name(args, "sparse_tuned_cpu");
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    LineChart {
        title: "CPU x·W: sparse layouts against a tuned dense product".into(),
        subtitle: format!(
            "{all} rayon threads; x {m}×{k} · W {k}×{n}; median of {samples}, p10–p90"
        ),
        x_label: "sparsity (%)".into(),
        y_label: "time (ms)".into(),
        log_x: false,
        log_y: true,
        series: by_sparsity,
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    let scaling_name = format!("{name}_threads");
    LineChart {
        title: "CPU x·W: speed-up over one thread".into(),
        subtitle: format!("x {m}×{k} · W {k}×{n}; median of {samples}"),
        x_label: "rayon threads".into(),
        y_label: "speed-up over 1 thread".into(),
        log_x: true,
        log_y: true,
        series: scaling,
        markers: vec![],
    }
    .write(&dir.join(format!("{scaling_name}.svg")))?;
    Sidecar::new(
        &name,
        "CPU time of x·W: CSR (magnitude-pruned) and 2:4 against a tuned dense product (packed FMA micro-kernel on column panels) and a one-dot-per-output dense loop, at each thread count",
    )
    .with_notes(vec![
        format!("micro-kernel chosen at run time: {:?}", computational_graphs::cpu_matmul::packed_fma::kernel()),
        format!("thread counts {counts:?}; {name}_threads.svg plots speed-ups from the same CSV"),
        format!("largest difference between the tuned and the simple dense product: {gap:.2e}"),
    ])
    .write(&dir.join(format!("{name}.json")))?;
    println!("sparse-tuned-cpu → {name}.csv");
    Ok(())
}
