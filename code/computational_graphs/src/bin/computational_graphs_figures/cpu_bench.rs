//! CPU matrix multiply at 512², one thread against one thread and all threads against all
//! threads: the loop orders, cache blocking, the packed multiply with its portable and its FMA
//! micro-kernel, each on one core and on rayon, against `matrixmultiply` on one thread and on
//! as many as rayon uses (timed in a child process each, see `matrixmultiply_worker`).

use bench_harness::{
    BarChart, Drawn, Figure, Found, MachineInfo, Stats, black_box, figures_dir, measure,
};
use computational_graphs::cpu_matmul::{self, packed_fma};
use computational_graphs::rng::SplitMix64;
use serde::{Deserialize, Serialize};

use crate::args::Args;
use crate::charts::cpu_subtitle;
use crate::matrixmultiply_worker;

/// One line of `<prefix>_cpu_matmul.csv`; the chart is drawn from these rows.
#[derive(Serialize, Deserialize)]
pub struct CpuMatmulRecord {
    variant: String,
    /// Threads the variant may use: 1, or the threaded group's count.
    threads: usize,
    size: usize,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    gflops: f64,
    speedup_vs_naive: f64,
    /// Median time over `matrixmultiply`'s with the same number of threads.
    time_vs_matrixmultiply: f64,
    /// Threads alive in `matrixmultiply`'s worker process (Linux; empty for our variants).
    os_threads: Option<usize>,
}

type Matmul = fn(&[f32], &[f32], &mut [f32], usize, usize, usize);

/// A timed variant: name, threads, times, and threads seen in a worker process.
type Timed = (String, usize, Stats, Option<usize>);

/// The FMA kernel's name on this CPU, for the table.
fn fma_kernel_name() -> &'static str {
    match packed_fma::kernel() {
        packed_fma::Kernel::Avx512 => "AVX-512 kernel 8x32",
        packed_fma::Kernel::Avx2Fma => "AVX2+FMA kernel 6x16",
        packed_fma::Kernel::Portable => "no FMA: SSE2 kernel 4x8",
    }
}

pub fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let n = 512;
    let mut rng = SplitMix64::new(n as u64);
    let a: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
    let mut c = vec![0.0f32; n * n];
    let flops = 2.0 * (n as f64).powi(3);
    let threads = rayon::current_num_threads();
    let fma = fma_kernel_name();
    let single: [(String, Matmul); 5] = [
        ("naive ijk".into(), cpu_matmul::naive),
        ("ikj order".into(), cpu_matmul::ikj),
        ("cache-blocked".into(), cpu_matmul::blocked),
        ("packed, SSE2 kernel 4x8".into(), cpu_matmul::packed),
        (format!("packed, {fma}"), cpu_matmul::packed_fma),
    ];
    let threaded: [(String, Matmul); 3] = [
        ("blocked + rayon".into(), cpu_matmul::parallel),
        (
            "packed + rayon, SSE2 kernel 4x8".into(),
            cpu_matmul::packed_parallel,
        ),
        (
            format!("packed + rayon, {fma}"),
            cpu_matmul::packed_fma_parallel,
        ),
    ];
    let (warmup, samples) = if args.quick { (1, 5) } else { (2, 10) };
    let time = |f: Matmul, c: &mut Vec<f32>| {
        measure(warmup, samples, || {
            f(&a, &b, c, n, n, n);
            black_box(&*c);
        })
    };
    // (name, threads, stats, os_threads), one group per thread count, matrixmultiply last.
    let mut groups: Vec<Vec<Timed>> = Vec::new();
    for (list, t) in [(&single[..], 1), (&threaded[..], threads)] {
        let mut group = Vec::new();
        for (name, f) in list {
            eprintln!("cpu matmul: {name}");
            group.push((name.clone(), t, time(*f, &mut c), None));
        }
        eprintln!("cpu matmul: matrixmultiply on {t} thread(s), in a worker process");
        let mm = matrixmultiply_worker::time(n, t, warmup, samples)?;
        let label = match mm.threads {
            1 => "matrixmultiply, one thread".to_owned(),
            t => format!("matrixmultiply, {t} threads"),
        };
        group.push((label, mm.threads, mm.stats, mm.os_threads));
        groups.push(group);
    }
    let naive = groups[0][0].2.median;
    let mut records = Vec::new();
    for group in &groups {
        let reference = group.last().map_or(1.0, |r| r.2.median);
        for (name, t, s, os_threads) in group {
            records.push(CpuMatmulRecord {
                variant: name.clone(),
                threads: *t,
                size: n,
                median_ms: round(s.median * 1e3, 4),
                p10_ms: round(s.p10 * 1e3, 4),
                p90_ms: round(s.p90 * 1e3, 4),
                gflops: round(flops / s.median / 1e9, 2),
                speedup_vs_naive: round(naive / s.median, 2),
                time_vs_matrixmultiply: round(s.median / reference, 3),
                os_threads: *os_threads,
            });
        }
    }
    let machine = cpu_subtitle(args.machine.as_deref(), &MachineInfo::detect().summary());
    let name = format!("{}_cpu_matmul", args.prefix);
    let mut sidecar = args.sidecar(
        &name,
        "CPU matmul variants at 512³, one thread against one thread and threaded against \
         threaded; median GFLOP/s, whiskers p10–p90",
        None,
    );
    sidecar.notes.push(format!(
        "threaded group: {threads} rayon threads; matrixmultiply (threading feature) in a child \
         process with MATMUL_NUM_THREADS set, capped at {} by the crate; FMA kernel: {fma}; \
         median of {samples} after {warmup} warm-ups",
        matrixmultiply_worker::MAX_THREADS
    ));
    Figure::new(sidecar)
        .rows(&records)?
        .chart(chart(&records, &machine).to_svg())
        .extra(&format!("{name}.md"), markdown(&records, &machine))
        .write_to(&figures_dir())?;
    Ok(())
}

/// One bar per variant, in the table's order (threads in brackets): median GFLOP/s, whiskers
/// p10–p90.
pub fn chart(records: &[CpuMatmulRecord], machine: &str) -> BarChart {
    let n = records.first().map_or(0, |r| r.size);
    let bars = records
        .iter()
        .map(|r| {
            let gflops = |ms: f64| 2.0 * (r.size as f64).powi(3) / (ms / 1e3) / 1e9;
            (
                format!("{} ({}T)", r.variant, r.threads),
                r.gflops,
                Some((gflops(r.p90_ms), gflops(r.p10_ms))),
            )
        })
        .collect();
    BarChart {
        title: format!("CPU matrix multiply {n}×{n}×{n}, f32 (threads in brackets)"),
        subtitle: machine.to_owned(),
        y_label: "GFLOP/s (higher is better)".into(),
        log_y: true,
        bars,
    }
}

/// `--redraw` of `{prefix}_cpu_matmul`: the chart again from its rows, subtitled from the
/// sidecar. A table from before the thread counts were kept cannot label its bars: kept.
pub fn redraw(found: &Found) -> Result<Drawn, Box<dyn std::error::Error>> {
    /// The one column a table from before the thread counts lacks.
    #[derive(Deserialize)]
    struct Threads {
        threads: Option<usize>,
    }
    if found.rows::<Threads>()?.iter().any(|r| r.threads.is_none()) {
        return Ok(Drawn::Kept(
            "its table has no threads column (measured before the threaded group was timed \
             against matrixmultiply on as many threads), which the chart's labels show"
                .into(),
        ));
    }
    let records: Vec<CpuMatmulRecord> = found.rows()?;
    let record = &found.sidecar;
    let machine = cpu_subtitle(record.machine_label.as_deref(), &record.machine);
    Ok(Drawn::chart(found, chart(&records, &machine).to_svg()))
}

/// Rounds to `digits` decimals: the precision the timer has, not more.
fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// The table the book includes: one line per variant, 2–3 significant figures.
fn markdown(records: &[CpuMatmulRecord], machine: &str) -> String {
    let sig = crate::ladder_bench::sig;
    let mut md = String::from(
        "| variant (512³ f32) | threads | ms | GFLOP/s | speed-up vs naive | time vs matrixmultiply, same threads |\n\
         | --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in records {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {}× | {}× |\n",
            r.variant,
            r.threads,
            sig(r.median_ms),
            sig(r.gflops),
            sig(r.speedup_vs_naive),
            sig(r.time_vs_matrixmultiply),
        ));
    }
    md.push_str(&format!("\nMeasured on {machine}.\n"));
    md
}
