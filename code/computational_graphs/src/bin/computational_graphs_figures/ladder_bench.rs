//! The matmul ladder at one large size, timed with GPU timestamps where available: the eight
//! portable rungs, the three past them, and a small search over the tuned generator's
//! parameters (each configuration checked against the CPU before it is timed).

use bench_harness::digits::{round_to, significant};
use bench_harness::{BarChart, Drawn, Figure, Found, Stats, measure_durations};
use computational_graphs::matmul_ladder::{PreparedMatmul, Rung};
use computational_graphs::ops::cpu;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, Requirements, wgpu};

use crate::args::Args;
use crate::charts::{gpu_subtitle, subtitle};
use crate::tables::read_pytorch;
use search::Candidate;

mod search;

/// One kernel of `{prefix}_matmul_ladder.csv` (PyTorch's rows have no difference to the naive
/// kernel: it is not run here). The chart is drawn from these rows, measuring or redrawing.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct LadderRow {
    /// `rung` (the eight portable ones), `beyond` (the three past them), `search` (one
    /// configuration of the tuned generator) or `pytorch`; empty in tables from before it.
    #[serde(default)]
    group: String,
    kernel: String,
    size: usize,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    gflops: f64,
    timing: String,
    max_abs_diff_vs_naive: Option<f64>,
    /// Bytes of workgroup memory the kernel declares (tuned kernels only).
    workgroup_bytes: Option<u32>,
    /// Whether the module ran without wgpu's runtime checks.
    unchecked: Option<bool>,
}

/// What one timed kernel gave: its statistics per dispatch and its result.
struct Timed {
    stats: Stats,
    source: &'static str,
    result: Tensor2D,
}

/// Times `prepared` with `repeats` dispatches per submission.
fn time(
    ctx: &GpuContext,
    prepared: &PreparedMatmul,
    (warmup, samples, repeats): (usize, usize, usize),
) -> Result<Timed, Box<dyn std::error::Error>> {
    let mut source = "cpu-wall-clock";
    let mut failure = None;
    let stats = measure_durations(warmup, samples, || {
        match ctx.time_commands(|enc| prepared.record(enc, repeats)) {
            Ok(run) => {
                if run.source == gpu_context::TimingSource::GpuTimestamps {
                    source = "gpu-timestamps";
                }
                run.time / repeats as u32
            }
            Err(e) => {
                failure.get_or_insert(e);
                std::time::Duration::ZERO
            }
        }
    });
    if let Some(e) = failure {
        return Err(e.into());
    }
    Ok(Timed {
        stats,
        source,
        result: prepared.result(ctx)?,
    })
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let n = args.ladder_size;
    let mut rng = SplitMix64::new(4096);
    let a = Tensor2D::random(n, n, 1.0, &mut rng);
    let b = Tensor2D::random(n, n, 1.0, &mut rng);
    let flops = 2.0 * (n as f64).powi(3);
    let effort = if args.quick { (1, 3, 2) } else { (2, 7, 10) };
    // The first three rungs take 50–150 ms a dispatch at 4096²: two per submission are plenty.
    let slow_effort = if args.quick { effort } else { (1, 5, 2) };
    let search_effort = if args.quick { effort } else { (1, 5, 10) };
    // A device with subgroup operations where the adapter has them, for the subgroup rung.
    let subgroup_ctx = GpuContext::with_requirements(&Requirements {
        optional_features: wgpu::Features::SUBGROUP,
        ..Default::default()
    })?;
    let mut csv: Vec<LadderRow> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut naive: Option<Tensor2D> = None;
    let row = |group: &str, kernel, timed: &Timed, bytes, unchecked, naive: &Option<Tensor2D>| {
        let diff = naive
            .as_ref()
            .map_or(0.0, |r| r.max_abs_diff(&timed.result));
        LadderRow {
            group: group.to_owned(),
            kernel,
            size: n,
            median_ms: round_to(timed.stats.median * 1e3, 4),
            p10_ms: round_to(timed.stats.p10 * 1e3, 4),
            p90_ms: round_to(timed.stats.p90 * 1e3, 4),
            gflops: round_to(flops / timed.stats.median / 1e9, 1),
            timing: timed.source.to_owned(),
            max_abs_diff_vs_naive: Some(significant(f64::from(diff), 4)),
            workgroup_bytes: bytes,
            unchecked,
        }
    };
    for rung in Rung::ALL.into_iter().chain(Rung::BEYOND) {
        let on = if rung == Rung::SubgroupShuffle {
            &subgroup_ctx
        } else {
            ctx
        };
        eprintln!("matmul ladder: {} at {n}²", rung.name());
        let prepared = match PreparedMatmul::new(on, rung, &a, &b) {
            Ok(p) => p,
            Err(e @ computational_graphs::Error::AdapterLacks { .. }) => {
                eprintln!("  not run: {e}");
                notes.push(format!("{} was not run: {e}", rung.name()));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let slow = matches!(rung, Rung::Naive | Rung::Coalesced | Rung::Tiled);
        let timed = time(on, &prepared, if slow { slow_effort } else { effort })?;
        let (bytes, unchecked) = match rung.tuning(n, n, n) {
            Some(t) => {
                let p = rung.pipelining(on)?;
                (
                    Some(t.workgroup_bytes(&p)),
                    Some(t.is_in_bounds_with(&p) && t.fits_exactly(n, n, n)),
                )
            }
            None => (None, None),
        };
        let group = if Rung::ALL.contains(&rung) {
            "rung"
        } else {
            "beyond"
        };
        csv.push(row(
            group,
            rung.name().into(),
            &timed,
            bytes,
            unchecked,
            &naive,
        ));
        if naive.is_none() {
            naive = Some(timed.result);
        }
    }
    let candidates = search::candidates(args.quick);
    eprintln!(
        "tuned-generator search: {} configurations",
        candidates.len()
    );
    // Each configuration compiles two pipelines; a slow driver must not push the whole figure
    // past its time limit, so the search stops after this long and says what it left out.
    let started = std::time::Instant::now();
    let budget = std::time::Duration::from_secs(if args.quick { 30 } else { 55 });
    let total = candidates.len();
    for (i, mut c) in candidates.into_iter().enumerate() {
        if started.elapsed() > budget {
            let left = total - i;
            eprintln!("  search stopped after {budget:?}: {left} configurations not timed");
            notes.push(format!(
                "The search stopped after {} s: {left} configurations were not timed.",
                budget.as_secs()
            ));
            break;
        }
        match search_one(ctx, &mut c, &a, &b, n, search_effort) {
            Ok((timed, bytes, unchecked)) => csv.push(row(
                "search",
                c.name(),
                &timed,
                Some(bytes),
                Some(unchecked),
                &naive,
            )),
            Err(e) => {
                eprintln!("  {}: not timed: {e}", c.name());
                notes.push(format!("{} was not timed: {e}", c.name()));
            }
        }
    }
    if let Some(path) = &args.pytorch_csv {
        for r in read_pytorch(std::path::Path::new(path))?
            .into_iter()
            .filter(|r| r.sweep == "matmul" && r.size == n)
        {
            csv.push(LadderRow {
                group: "pytorch".into(),
                kernel: r.variant,
                size: n,
                median_ms: round_to(r.median_ms, 4),
                p10_ms: round_to(r.p10_ms, 4),
                p90_ms: round_to(r.p90_ms, 4),
                gflops: round_to(flops / (r.median_ms / 1e3) / 1e9, 1),
                timing: "cuda-events".into(),
                max_abs_diff_vs_naive: None,
                workgroup_bytes: None,
                unchecked: None,
            });
        }
    }
    let best_search = best_search(&csv);
    let name = format!("{}_matmul_ladder", args.prefix);
    let chart = chart(&csv, &subtitle(ctx, args));
    let mut sidecar = args.sidecar(
        &name,
        "WGSL matmul kernels (rungs, the three past them, a search over the tuned generator's \
         parameters), median GFLOP/s; whiskers p10–p90",
        Some(ctx.report()),
    );
    // The Markdown table beside the chart: listing it names the usual pair too.
    sidecar.files = vec![format!("{name}.csv"), format!("{name}.svg")];
    let table = ladder_table(
        &csv,
        best_search.as_deref(),
        n,
        &subtitle(ctx, args),
        &notes,
    );
    Figure::new(sidecar)
        .rows(&csv)?
        .chart(chart.to_svg())
        .extra(&format!("{name}.md"), table)
        .write()?;
    Ok(())
}

/// The search's fastest configuration.
fn best_search(rows: &[LadderRow]) -> Option<String> {
    rows.iter()
        .filter(|r| r.group == "search")
        .max_by(|x, y| x.gflops.total_cmp(&y.gflops))
        .map(|r| r.kernel.clone())
}

/// The ladder chart: every rung, the best configuration of the search, PyTorch; whiskers p10–p90
/// (none for PyTorch).
pub fn chart(rows: &[LadderRow], subtitle: &str) -> BarChart {
    let n = rows.first().map_or(0, |r| r.size);
    let gflops = |ms: f64| 2.0 * (n as f64).powi(3) / (ms / 1e3) / 1e9;
    let best = best_search(rows);
    let bars = rows
        .iter()
        .filter(|r| r.group != "search" || Some(&r.kernel) == best.as_ref())
        .map(|r| {
            let label = if r.group == "search" {
                format!("best of search: {}", r.kernel)
            } else {
                r.kernel.clone()
            };
            let spread = (r.group != "pytorch").then(|| (gflops(r.p90_ms), gflops(r.p10_ms)));
            // From the time, which keeps more digits than the table's GFLOP/s on a slow device.
            (label, gflops(r.median_ms), spread)
        })
        .collect();
    BarChart {
        title: format!("Matrix multiply {n}×{n}×{n}, f32: the ladder"),
        subtitle: subtitle.to_owned(),
        y_label: "GFLOP/s (higher is better)".into(),
        log_y: true,
        bars,
    }
}

/// `--redraw` of `{prefix}_matmul_ladder`: the chart again from its rows, subtitled from the
/// sidecar. A table from before the groups had only rungs and PyTorch (timed by CUDA events).
pub fn redraw(found: &Found) -> Result<Drawn, Box<dyn std::error::Error>> {
    let mut rows: Vec<LadderRow> = found.rows()?;
    for r in rows.iter_mut().filter(|r| r.group.is_empty()) {
        r.group = if r.timing == "cuda-events" {
            "pytorch"
        } else {
            "rung"
        }
        .into();
    }
    let svg = chart(&rows, &gpu_subtitle(found)?).to_svg();
    Ok(Drawn::chart(found, svg))
}

/// Checks one configuration against the CPU at a small shape its blocks tile exactly, then
/// times it at n³. Returns the timing, its workgroup memory and whether it ran unchecked.
fn search_one(
    ctx: &GpuContext,
    c: &mut Candidate,
    a: &Tensor2D,
    b: &Tensor2D,
    n: usize,
    effort: (usize, usize, usize),
) -> Result<(Timed, u32, bool), Box<dyn std::error::Error>> {
    c.fits(ctx)?;
    let (sm, sk, sn) = c.check_shape();
    let mut rng = SplitMix64::new(sm as u64 * 7 + sk as u64);
    let small_a = Tensor2D::random(sm, sk, 1.0, &mut rng);
    let small_b = Tensor2D::random(sk, sn, 1.0, &mut rng);
    let t = c.tuning.for_shape(sm, sk, sn);
    let small = PreparedMatmul::tuned_with(ctx, &t, &c.pipelining, &small_a, &small_b, None)?;
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    small.record(&mut encoder, 1);
    ctx.queue.submit([encoder.finish()]);
    let got = small.result(ctx)?;
    let want = cpu::linear(&small_a, &small_b, &Tensor2D::zeros(1, sn))?;
    let diff = got.max_abs_diff(&want);
    // Inputs in [-1, 1] and k ≤ 96: f32 rounding stays far below this.
    if diff.is_nan() || diff > 1e-3 {
        return Err(
            format!("wrong at {sm}×{sk}×{sn}: largest difference from the CPU {diff}").into(),
        );
    }
    eprintln!(
        "  {}: matches the CPU at {sm}×{sk}×{sn}; timing at {n}³",
        c.name()
    );
    let t = c.tuning.for_shape(n, n, n);
    let prepared = PreparedMatmul::tuned_with(ctx, &t, &c.pipelining, a, b, None)?;
    let timed = time(ctx, &prepared, effort)?;
    let unchecked = t.is_in_bounds_with(&c.pipelining) && t.fits_exactly(n, n, n);
    Ok((timed, t.workgroup_bytes(&c.pipelining), unchecked))
}

/// The GPU's dense FP32 peak where the subtitle names one we know (NVIDIA's datasheets: H100
/// SXM and H200 SXM, 67 TFLOP/s each).
fn fp32_peak_gflops(sub: &str) -> Option<(&'static str, f64)> {
    if sub.contains("NVL") || sub.contains("PCIe") {
        None
    } else if sub.contains("H200") {
        Some(("H200", 67_000.0))
    } else if sub.contains("H100") {
        Some(("H100", 67_000.0))
    } else {
        None
    }
}

/// Markdown: each kernel's time, GFLOP/s, share of PyTorch and of the FP32 peak; the search's
/// best configuration in bold.
fn ladder_table(
    rows: &[LadderRow],
    best: Option<&str>,
    n: usize,
    sub: &str,
    notes: &[String],
) -> String {
    let peak = fp32_peak_gflops(sub);
    let pytorch = rows.iter().find(|r| r.group == "pytorch").map(|r| r.gflops);
    let mut t = format!(
        "| kernel ({n}³ f32) | ms | GFLOP/s | share of PyTorch | share of {} FP32 peak |\n| --- | ---: | ---: | ---: | ---: |\n",
        peak.map_or("the", |p| p.0)
    );
    for r in rows {
        let share = pytorch.map_or("–".into(), |p| format!("{:.1} %", 100.0 * r.gflops / p));
        let of_peak = peak.map_or("–".into(), |p| format!("{:.1} %", 100.0 * r.gflops / p.1));
        let label = match r.group.as_str() {
            "beyond" => format!("{} (past the eight)", r.kernel),
            "search" if Some(r.kernel.as_str()) == best => {
                format!("**search: {} (best)**", r.kernel)
            }
            "search" => format!("search: {}", r.kernel),
            _ => r.kernel.clone(),
        };
        t.push_str(&format!(
            "| {label} | {:.3} | {} | {share} | {of_peak} |\n",
            r.median_ms,
            sig(r.gflops)
        ));
    }
    for note in notes {
        t.push_str(&format!("\n{note}\n"));
    }
    t.push_str(&format!("\nMeasured on {sub}.\n"));
    t
}

/// Three significant digits, without scientific notation: 0.0612, 1.56, 2660.
pub fn sig(x: f64) -> String {
    let digits = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else if x >= 1.0 {
        2
    } else {
        3
    };
    format!("{x:.digits$}")
}
