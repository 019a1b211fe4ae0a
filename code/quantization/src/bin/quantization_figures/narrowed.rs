//! What structured pruning buys in time: the tuned dense product on a layer with only a share of
//! its output columns (neurons) left, beside CSR on the same layer magnitude-pruned to the same
//! sparsity, at every thread count.

use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar, measure};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use quantization::prune::prune_magnitude;
use quantization::sparse::{Csr, Weights};

use crate::output::{figure_name, seven_digits};
use crate::sparse_tuned::{PanelledDense, shape, thread_counts};

/// Shares of the neurons removed: 2048 columns become 2048, 1024, 512, 256 and 128.
const SPARSITIES: [f64; 5] = [0.0, 0.5, 0.75, 0.875, 0.9375];

/// The first `n` columns of `w`: the layer with the other neurons pruned away.
fn first_columns(w: &Tensor2D, n: usize) -> Tensor2D {
    let (k, cols) = w.shape();
    let data = (0..k)
        .flat_map(|r| &w.data()[r * cols..r * cols + n])
        .copied()
        .collect();
    Tensor2D::new(k, n, data).expect("k·n values")
}

/// The chart: time against sparsity at the most threads, the narrowed dense layer beside CSR.
/// `quick` says which shape was measured.
pub fn chart(rows: &[Row], quick: bool) -> anyhow::Result<String> {
    let (m, k, n, samples) = shape(quick);
    let all = rows
        .iter()
        .map(|r| r.threads)
        .max()
        .ok_or_else(|| anyhow::anyhow!("the table has no rows"))?;
    let series = [
        ("dense narrowed", "dense on the kept neurons (tuned)"),
        ("CSR", "CSR, magnitude-pruned"),
    ]
    .map(|(layout, label)| {
        let mut s = Series::new(label);
        for r in rows
            .iter()
            .filter(|r| r.threads == all && r.layout == layout)
        {
            s.point_with_spread(
                r.sparsity * 100.0,
                r.median_s * 1e3,
                r.p10_s * 1e3,
                r.p90_s * 1e3,
            );
        }
        s
    });
    Ok(LineChart {
        title: "CPU x·W: neurons pruned (a narrower dense layer) against CSR".into(),
        subtitle: format!(
            "{all} rayon threads; x {m}×{k} · W {k}×{n}; median of {samples}, p10–p90"
        ),
        x_label: "sparsity (%)".into(),
        y_label: "time (ms)".into(),
        log_x: false,
        log_y: true,
        series: series.into(),
        markers: vec![],
    }
    .to_svg())
}

/// One row of the table: one layout at one sparsity and thread count (seconds); `columns` is
/// the width of the layer the product ran on.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub threads: usize,
    pub layout: String,
    pub sparsity: f64,
    pub columns: usize,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let (m, k, n, samples) = shape(args.quick);
    let mut rng = SplitMix64::new(3);
    let (x, w) = (
        Tensor2D::random(m, k, 1.0, &mut rng),
        Tensor2D::random(k, n, 1.0, &mut rng),
    );
    let layers: Vec<(f64, usize, PanelledDense, Weights)> = SPARSITIES
        .iter()
        .map(|&s| {
            let kept = ((1.0 - s) * n as f64).round() as usize;
            let narrow = PanelledDense::new(&first_columns(&w, kept));
            let csr = Weights::Csr(Csr::from_dense(&prune_magnitude(&w, s)));
            (s, kept, narrow, csr)
        })
        .collect();
    let counts = thread_counts(args.quick);
    let mut rows = Vec::new();
    for &threads in &counts {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        for (s, kept, narrow, csr) in &layers {
            let dense = pool.install(|| {
                measure(1, samples, || {
                    bench_harness::black_box(narrow.matmul(&x));
                })
            });
            let sparse = pool.install(|| {
                measure(1, samples, || {
                    bench_harness::black_box(csr.matmul(&x));
                })
            });
            for (layout, columns, st) in [("dense narrowed", *kept, dense), ("CSR", n, sparse)] {
                rows.push(Row {
                    threads,
                    layout: layout.into(),
                    sparsity: *s,
                    columns,
                    median_s: seven_digits(st.median),
                    p10_s: seven_digits(st.p10),
                    p90_s: seven_digits(st.p90),
                });
            }
        }
        eprintln!("narrowed-cpu: {threads} threads done");
    }
    let name = figure_name(args, "narrowed_cpu");
    let sidecar = Sidecar::new(
        &name,
        "CPU time of x·W with a share of the neurons pruned (the tuned dense product on the kept columns) and with the same share of weights magnitude-pruned (CSR), at each thread count",
    )
    .with_notes(vec![format!(
        "thread counts {counts:?}; kept columns {:?}",
        layers.iter().map(|l| l.1).collect::<Vec<_>>()
    )]);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows, args.quick)?)
        .write()?;
    println!("narrowed-cpu → {name}.csv");
    Ok(())
}
