//! What structured pruning buys in time: the tuned dense product on a layer with only a share of
//! its output columns (neurons) left, beside CSR on the same layer magnitude-pruned to the same
//! sparsity, at every thread count.

use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir, measure};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use quantization::prune::prune_magnitude;
use quantization::sparse::{Csr, Weights};

use crate::output::figure_name;
use crate::sparse_tuned::{PanelledDense, thread_counts};

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
    let layers: Vec<(f64, usize, PanelledDense, Weights)> = SPARSITIES
        .iter()
        .map(|&s| {
            let kept = ((1.0 - s) * n as f64).round() as usize;
            let narrow = PanelledDense::new(&first_columns(&w, kept));
            let csr = Weights::Csr(Csr::from_dense(&prune_magnitude(&w, s)));
            (s, kept, narrow, csr)
        })
        .collect();
    let samples = if args.quick { 3 } else { 7 };
    let mut csv = Csv::new(&[
        "threads", "layout", "sparsity", "columns", "median_s", "p10_s", "p90_s",
    ]);
    let counts = thread_counts(args.quick);
    let all = *counts.last().expect("at least one thread count");
    let mut series = [
        Series::new("dense on the kept neurons (tuned)"),
        Series::new("CSR, magnitude-pruned"),
    ];
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
            for (i, (label, columns, st)) in [("dense narrowed", *kept, dense), ("CSR", n, sparse)]
                .into_iter()
                .enumerate()
            {
                csv.row(&[
                    threads.to_string(),
                    label.into(),
                    s.to_string(),
                    columns.to_string(),
                    format!("{:.6e}", st.median),
                    format!("{:.6e}", st.p10),
                    format!("{:.6e}", st.p90),
                ]);
                if threads == all {
                    series[i].point_with_spread(
                        s * 100.0,
                        st.median * 1e3,
                        st.p10 * 1e3,
                        st.p90 * 1e3,
                    );
                }
            }
        }
        eprintln!("narrowed-cpu: {threads} threads done");
    }
    let name = figure_name(args, "narrowed_cpu");
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    LineChart {
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
    .write(&dir.join(format!("{name}.svg")))?;
    Sidecar::new(
        &name,
        "CPU time of x·W with a share of the neurons pruned (the tuned dense product on the kept columns) and with the same share of weights magnitude-pruned (CSR), at each thread count",
    )
    .with_notes(vec![format!(
        "thread counts {counts:?}; kept columns {:?}",
        layers.iter().map(|l| l.1).collect::<Vec<_>>()
    )])
    .write(&dir.join(format!("{name}.json")))?;
    println!("narrowed-cpu → {name}.csv");
    Ok(())
}
