//! A roofline of the machine that ran the ladder: the matmul ladder's kernels and the graph
//! variants of the size sweep, from the CSVs written earlier with the same prefix.
//!
//! Roofs: on a GPU, its data sheet's FP32 peak and memory bandwidth; on a CPU adapter (lavapipe),
//! this machine's own, measured here by [`crate::cpu_roofs`].
//!
//! Ladder x: operational intensity, FLOP per byte of device memory, modelled per kernel from its
//! block: a BM×BN block reads (BM + BN)·K floats for 2·BM·BN·K FLOP, so I = BM·BN / (2·(BM + BN)),
//! with no reuse between blocks (caches can only do better, which puts a point above the roof).
//! PyTorch's cuBLAS kernel is placed at the whole problem's intensity, n/6.
//!
//! Graph x: the seeded depth-64 graph at the sweep's largest size, its FLOPs and bytes from
//! [`crate::roofline_model::graph_cost`]; fused variants and the compiled ones (whose lowering
//! merges element-wise work into the kernel before it, at least as much as fusion does) use the
//! fused graph's bytes.
//!
//! y: achieved FLOP/s: the model's FLOPs over the measured time.

use std::path::Path;

use bench_harness::digits::round_to;
use bench_harness::{Drawn, Figure, Found, LineChart, Series, figures_dir, read_rows};
use computational_graphs::graph::{fuse, validate};
use computational_graphs::random_graph::random_graph;
use gpu_context::AdapterReport;

use crate::args::Args;
use crate::roofline_model::{Cost, graph_cost, roof};
use crate::sweep::seed;
use crate::tables::{LadderPoint, SWEEP_DEPTH, SweepRecord, read_pytorch};
use crate::variants::Variant;

/// (name, FP32 FLOP/s, bytes/s, source) for the GPUs the course measures on.
const PEAKS: [(&str, f64, f64, &str); 2] = [
    (
        "H100",
        67e12,
        3.35e12,
        "NVIDIA H100 SXM5 datasheet (nvidia.com/en-us/data-center/h100): FP32 67 TFLOPS, HBM3 3.35 TB/s",
    ),
    (
        "H200",
        67e12,
        4.8e12,
        "NVIDIA H200 SXM datasheet (nvidia.com/en-us/data-center/h200): FP32 67 TFLOPS, HBM3e 4.8 TB/s",
    ),
];

/// The machine's two roofs and where they come from.
struct Roofs {
    name: String,
    peak: f64,
    bandwidth: f64,
    notes: Vec<String>,
}

/// The data sheet a GPU run's roofs come from, by the figure's prefix (or name).
fn gpu_peaks(prefix: &str) -> (&'static str, f64, f64, &'static str) {
    if prefix.contains("h200") {
        PEAKS[1]
    } else {
        PEAKS[0]
    }
}

/// The roofs' name on a CPU adapter (lavapipe): the machine's own, measured.
fn cpu_roofs_name(machine: &str, adapter: &str) -> String {
    format!("{machine} CPU via {adapter}")
}

fn roofs(adapter: &AdapterReport, args: &Args) -> Roofs {
    if adapter.is_software() {
        let cpu = crate::cpu_roofs::measure();
        let machine = args
            .machine
            .clone()
            .unwrap_or_else(|| bench_harness::MachineInfo::detect().cpu_model);
        return Roofs {
            name: cpu_roofs_name(&machine, &adapter.name),
            peak: cpu.peak_flops,
            bandwidth: cpu.bandwidth,
            notes: cpu.notes,
        };
    }
    let (name, peak, bandwidth, source) = gpu_peaks(&args.prefix);
    Roofs {
        name: name.into(),
        peak,
        bandwidth,
        notes: vec![format!("peaks from the data sheet: {source}")],
    }
}

fn intensity(kernel: &str, n: f64) -> Option<f64> {
    let block = |bm: f64, bn: f64| bm * bn / (2.0 * (bm + bn));
    Some(match kernel {
        "naive" | "coalesced" => block(1.0, 1.0),
        "tiled 16x16" => block(16.0, 16.0),
        "register-blocked 4x4" => block(64.0, 64.0),
        k if k.starts_with("PyTorch") => n / 6.0,
        k if k.contains("8x8") => block(128.0, 128.0),
        _ => return None,
    })
}

/// One placed point: (what, intensity, achieved GFLOP/s).
type Point = (String, f64, f64);

/// The variants' points, and the graph they ran: (size, unfused cost, fused cost).
type Placed = (Vec<Point>, Option<(usize, Cost, Cost)>);

fn ladder_points(path: &Path) -> Result<Vec<Point>, Box<dyn std::error::Error>> {
    if !path.is_file() {
        return Err(format!("{}: no such file (run --only ladder first)", path.display()).into());
    }
    let rows: Vec<LadderPoint> = read_rows(path)?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let x = intensity(&r.kernel, r.size as f64)?;
            Some((r.kernel, x, r.gflops))
        })
        .collect())
}

/// The size sweep's variants at its largest size (depth 64), if the sweep's CSV exists.
/// CPU variants count only where the roofs are the CPU's.
fn variant_points(
    path: &Path,
    args: &Args,
    cpu_roofs: bool,
) -> Result<Placed, Box<dyn std::error::Error>> {
    if !path.is_file() {
        return Ok((Vec::new(), None));
    }
    let rows: Vec<SweepRecord> = read_rows::<SweepRecord>(path)?
        .into_iter()
        .filter(|r| r.depth == SWEEP_DEPTH)
        .collect();
    let Some(size) = rows.iter().map(|r| r.size).max() else {
        return Ok((Vec::new(), None));
    };
    let (list, _) = random_graph(seed(size, SWEEP_DEPTH), size, SWEEP_DEPTH);
    let graph = validate(&list)?;
    let (plain, fused) = (graph_cost(&graph), graph_cost(&fuse(&graph)));
    let mut points = Vec::new();
    for r in rows.iter().filter(|r| r.size == size) {
        let Some(v) = Variant::ALL.into_iter().find(|v| v.name() == r.variant) else {
            continue;
        };
        if v.is_cpu() && !cpu_roofs {
            continue;
        }
        let uses_fused = matches!(
            v,
            Variant::CpuFused
                | Variant::GraphFused
                | Variant::GraphLoopFused
                | Variant::Compiled
                | Variant::CompiledChosen
        );
        let cost = if uses_fused { fused } else { plain };
        // GPU timestamps where the loop variants have them, else the wall clock per run.
        let ms = r.gpu_timestamps_ms.unwrap_or(r.median_ms);
        points.push((
            format!("graph: {}", v.name()),
            cost.intensity(),
            cost.flops / (ms / 1e3) / 1e9,
        ));
    }
    if let Some(p) = &args.pytorch_csv {
        for r in read_pytorch(Path::new(p))?
            .into_iter()
            .filter(|r| r.sweep == "size" && r.size == size && r.depth == SWEEP_DEPTH)
        {
            // PyTorch's own fusion is unknown here: placed at the unfused graph's intensity.
            let g = plain.flops / (r.median_ms / 1e3) / 1e9;
            points.push((format!("graph: {}", r.variant), plain.intensity(), g));
        }
    }
    Ok((points, Some((size, plain, fused))))
}

/// One placed point of `{prefix}_roofline.csv`, with the roofs it is read against; the chart is
/// drawn from these rows.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct RooflineRow {
    point: String,
    intensity_flop_per_byte: f64,
    achieved_gflops: f64,
    roof_gflops: f64,
    peak_gflops: f64,
    bandwidth_gb_per_s: f64,
}

pub fn run(adapter: &AdapterReport, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let dir = figures_dir();
    let ladder = dir.join(format!("{}_matmul_ladder.csv", args.prefix));
    let sizes = dir.join(format!("{}_size.csv", args.prefix));
    let mut points = ladder_points(&ladder)?;
    let (variants, graph) = variant_points(&sizes, args, adapter.is_software())?;
    points.extend(variants);
    let r = roofs(adapter, args);
    let mut csv: Vec<RooflineRow> = Vec::new();
    for (what, x, g) in &points {
        csv.push(RooflineRow {
            point: what.clone(),
            intensity_flop_per_byte: round_to(*x, 3),
            achieved_gflops: round_to(*g, 3),
            roof_gflops: round_to(roof(*x, r.peak, r.bandwidth) / 1e9, 1),
            peak_gflops: round_to(r.peak / 1e9, 1),
            bandwidth_gb_per_s: round_to(r.bandwidth / 1e9, 1),
        });
    }
    let out = format!("{}_roofline", args.prefix);
    let roofs_line = roofs_line(r.peak / 1e9, r.bandwidth / 1e9);
    let chart = chart(&csv, &r.name);
    let mut sidecar = args.sidecar(
        &out,
        "matmul ladder kernels and graph variants on the machine's roofline; intensity modelled \
         from each kernel's block size and from each graph's operators",
        Some(adapter),
    );
    sidecar.notes.push(roofs_line);
    sidecar.notes.extend(r.notes);
    sidecar
        .notes
        .push(format!("ladder data: {}", ladder.display()));
    sidecar.notes.push(
        "ladder intensity: a BM×BN block reads (BM+BN)·K floats for 2·BM·BN·K FLOP, no reuse \
         between blocks; PyTorch at the whole problem's n/6"
            .into(),
    );
    if let Some((size, plain, fused)) = graph {
        sidecar.notes.push(format!(
            "graph data: {} at {size}×{size}, depth {SWEEP_DEPTH}: {:.3} GFLOP per run; \
             {:.1} MB unfused (I = {:.2}), {:.1} MB fused (I = {:.2})",
            sizes.display(),
            plain.flops / 1e9,
            plain.bytes / 1e6,
            plain.intensity(),
            fused.bytes / 1e6,
            fused.intensity()
        ));
        sidecar.notes.push(
            "graph model: Linear 2·m·k·n + m·n FLOP, ReLU and Softmax one FLOP per element; bytes \
             = every tensor an operator reads and writes, 4 bytes each; a fused operator reads \
             its first part's inputs and writes its last part's output; transfers count neither; \
             fused and compiled variants use the fused graph; time = GPU timestamps where \
             present, else the wall clock per run (which includes upload, download and submission)"
                .into(),
        );
    }
    Figure::new(sidecar)
        .rows(&csv)?
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

/// The roofs in words, as the subtitle and the sidecar give them.
fn roofs_line(peak_gflops: f64, bandwidth_gb_s: f64) -> String {
    format!("peak {peak_gflops:.0} GFLOP/s, memory {bandwidth_gb_s:.0} GB/s")
}

/// The roofline of the machine the rows name (`roofs`: whose roofs they are), with one point per
/// row.
pub fn chart(rows: &[RooflineRow], roofs: &str) -> LineChart {
    let (peak, bandwidth) = rows.first().map_or((0.0, 0.0), |r| {
        (r.peak_gflops * 1e9, r.bandwidth_gb_per_s * 1e9)
    });
    // Straight in log–log on either side of the ridge: three points draw it.
    let mut roof_line = Series::new("roof");
    for x in [0.01, peak / bandwidth, 1000.0] {
        roof_line.point(x, roof(x, peak, bandwidth) / 1e9);
    }
    let mut series = vec![roof_line];
    for r in rows {
        let mut s = Series::new(&r.point);
        s.point(r.intensity_flop_per_byte, r.achieved_gflops);
        series.push(s);
    }
    LineChart {
        title: "Roofline: the matmul ladder and the graph variants".into(),
        subtitle: format!("{roofs}: {}", roofs_line(peak / 1e9, bandwidth / 1e9)),
        x_label: "operational intensity (FLOP per byte of memory, modelled)".into(),
        y_label: "GFLOP/s".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![(peak / bandwidth, "ridge".into())],
    }
}

/// `--redraw` of `{prefix}_roofline`: the chart again from its rows; whose roofs they are comes
/// from the sidecar (a CPU adapter's run measured the machine's own, a GPU's are its data sheet's).
pub fn redraw(found: &Found) -> Result<Drawn, Box<dyn std::error::Error>> {
    let rows: Vec<RooflineRow> = found.rows()?;
    if rows.is_empty() {
        return Err("the table has no rows, so no roofs to draw".into());
    }
    let adapter = found.adapter_name().unwrap_or("an unnamed adapter");
    let roofs = if found.software_adapter() {
        cpu_roofs_name(found.machine(), adapter)
    } else {
        gpu_peaks(&found.name).0.to_owned()
    };
    Ok(Drawn::chart(found, chart(&rows, &roofs).to_svg()))
}
