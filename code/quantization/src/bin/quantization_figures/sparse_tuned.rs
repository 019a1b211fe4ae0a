//! CPU time of `x · W` for pruned weights, CSR and 2:4 against a tuned dense product (the
//! packed FMA micro-kernel of `computational_graphs`, column panels spread over rayon), at every
//! thread count from 1 to the machine's logical CPUs.

use bench_harness::{Figure, FigureArgs, LineChart, MachineInfo, Series, Sidecar, Stats, measure};
use computational_graphs::cpu_matmul::packed_fma;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use quantization::prune::{prune_2_4, prune_magnitude};
use quantization::sparse::{Csr, Sparse24, Weights};
use rayon::prelude::*;

use crate::output::{figure_name, seven_digits};

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

/// x m×k · W k×n, and the samples per point: (m, k, n, samples).
pub(super) fn shape(quick: bool) -> (usize, usize, usize, usize) {
    if quick {
        (16, 256, 256, 3)
    } else {
        (64, 2048, 2048, 7)
    }
}

/// One row of the table: one layout at one thread count (seconds).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub threads: usize,
    pub layout: String,
    pub sparsity: f64,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
}

impl Row {
    pub(super) fn new(threads: usize, layout: &str, sparsity: f64, st: &Stats) -> Self {
        Self {
            threads,
            layout: layout.into(),
            sparsity,
            median_s: seven_digits(st.median),
            p10_s: seven_digits(st.p10),
            p90_s: seven_digits(st.p90),
        }
    }

    fn point_ms(&self, s: &mut Series, x: f64) {
        s.point_with_spread(x, self.median_s * 1e3, self.p10_s * 1e3, self.p90_s * 1e3);
    }
}

/// The two charts from one table: time against sparsity at the most threads, and each layout's
/// speed-up over one thread. `quick` says which shape was measured.
pub fn charts(rows: &[Row], quick: bool) -> anyhow::Result<[String; 2]> {
    let (m, k, n, samples) = shape(quick);
    let all = rows
        .iter()
        .map(|r| r.threads)
        .max()
        .ok_or_else(|| anyhow::anyhow!("the table has no rows"))?;
    let at = |threads: usize, layout: &str, sparsity: Option<f64>| {
        rows.iter().find(|r| {
            r.threads == threads && r.layout == layout && sparsity.is_none_or(|s| r.sparsity == s)
        })
    };
    let mut by_sparsity: Vec<Series> = [
        "dense, packed FMA (tuned)",
        "dense, one dot per output",
        "CSR",
        "2:4",
    ]
    .map(Series::new)
    .into();
    for (i, layout) in ["dense packed", "dense dot"].into_iter().enumerate() {
        if let Some(r) = at(all, layout, None) {
            for s in [0.5, 0.995] {
                by_sparsity[i].point(s * 100.0, r.median_s * 1e3);
            }
        }
    }
    if let Some(r) = at(all, "2:4", None) {
        r.point_ms(&mut by_sparsity[3], 50.0);
    }
    for r in rows
        .iter()
        .filter(|r| r.threads == all && r.layout == "CSR")
    {
        r.point_ms(&mut by_sparsity[2], r.sparsity * 100.0);
    }
    let mut threads: Vec<usize> = rows.iter().map(|r| r.threads).collect();
    threads.dedup();
    let scaling = [
        ("dense, packed FMA", "dense packed", None),
        ("dense, one dot per output", "dense dot", None),
        ("CSR 50 %", "CSR", Some(0.5)),
        ("CSR 95 %", "CSR", Some(0.95)),
        ("2:4", "2:4", None),
    ]
    .map(|(label, layout, sparsity)| {
        let mut s = Series::new(label);
        if let Some(one) = at(1, layout, sparsity) {
            for &t in &threads {
                if let Some(r) = at(t, layout, sparsity) {
                    s.point(t as f64, one.median_s / r.median_s);
                }
            }
        }
        s
    });
    let by_sparsity = LineChart {
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
    };
    let scaling = LineChart {
        title: "CPU x·W: speed-up over one thread".into(),
        subtitle: format!("x {m}×{k} · W {k}×{n}; median of {samples}"),
        x_label: "rayon threads".into(),
        y_label: "speed-up over 1 thread".into(),
        log_x: true,
        log_y: true,
        series: scaling.into(),
        markers: vec![],
    };
    Ok([by_sparsity.to_svg(), scaling.to_svg()])
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let (m, k, n, samples) = shape(args.quick);
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

    let counts = thread_counts(args.quick);
    let mut rows = Vec::new();
    for &threads in &counts {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let mut row = |label: &str, sparsity: f64, f: &mut (dyn FnMut() + Send)| {
            let st = pool.install(|| measure(1, samples, f));
            rows.push(Row::new(threads, label, sparsity, &st));
        };
        row("dense packed", 0.0, &mut || {
            bench_harness::black_box(tuned.matmul(&x));
        });
        row("dense dot", 0.0, &mut || {
            bench_harness::black_box(simple.matmul(&x));
        });
        for (label, s, weights) in &layouts {
            row(label, *s, &mut || {
                bench_harness::black_box(weights.matmul(&x));
            });
        }
        eprintln!("sparse-tuned-cpu: {threads} threads done");
    }
    let name = figure_name(args, "sparse_tuned_cpu");
    let [by_sparsity, scaling] = charts(&rows, args.quick)?;
    let sidecar = Sidecar::new(
        &name,
        "CPU time of x·W: CSR (magnitude-pruned) and 2:4 against a tuned dense product (packed FMA micro-kernel on column panels) and a one-dot-per-output dense loop, at each thread count",
    )
    .with_notes(vec![
        format!("micro-kernel chosen at run time: {:?}", computational_graphs::cpu_matmul::packed_fma::kernel()),
        format!("thread counts {counts:?}; {name}_threads.svg plots speed-ups from the same CSV"),
        format!("largest difference between the tuned and the simple dense product: {gap:.2e}"),
    ])
    .with_files([format!("{name}.csv"), format!("{name}.svg")]);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(by_sparsity)
        .extra(&format!("{name}_threads.svg"), scaling)
        .write()?;
    println!("sparse-tuned-cpu → {name}.csv");
    Ok(())
}
