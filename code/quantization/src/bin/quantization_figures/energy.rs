use std::time::{Duration, Instant};

use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use gpu_context::GpuContext;
use quantization::energy::EnergyMeter;
use quantization::gemm::{GemmKind, GemmOnDevice, TileLayout};

use crate::output::{figure_name, seven_digits};

/// The "model": one 4096×4096 layer (the size of a small language model's projection).
const WIDTH: usize = 4096;

/// Readings of energy per point: the spread between them is what a quoted change must exceed.
const READINGS: usize = 3;

/// One energy reading: joules per inference above idle and the board's average power.
struct Reading {
    joules_per_inference: f64,
    watts: f64,
}

// ANCHOR: energy_point
/// Joules per inference above idle and the board's average power while submissions of `reps`
/// batches run back to back for `span`. The power is averaged over whole periods of the
/// counter; the time per inference comes from the clock around the loop.
fn energy_reading(
    ctx: &GpuContext,
    gemm: &GemmOnDevice,
    (meter, idle_watts): (&EnergyMeter, f64),
    (batch, reps): (usize, usize),
    span: Duration,
) -> anyhow::Result<Reading> {
    let (mut done, mut seconds, mut failed) = (0usize, 0.0, None);
    let power = meter.watts_over_ticks(|| {
        let start = Instant::now();
        while start.elapsed() < span {
            let mut e = ctx.device.create_command_encoder(&Default::default());
            gemm.record(&mut e, reps);
            ctx.queue.submit([e.finish()]);
            if let Err(e) = ctx.wait() {
                failed = Some(e);
                break;
            }
            done += reps;
        }
        seconds = start.elapsed().as_secs_f64();
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    let seconds_per_inference = seconds / (done * batch) as f64;
    Ok(Reading {
        joules_per_inference: (power.watts - idle_watts) * seconds_per_inference,
        watts: power.watts,
    })
}
// ANCHOR_END: energy_point

/// Median, smallest and largest of a few readings.
fn median_min_max(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

/// The layer's width, the batch sizes and the span of one energy reading.
fn sweep(quick: bool) -> (usize, &'static [usize], Duration) {
    if quick {
        (256, &[1, 16, 64], Duration::from_millis(300))
    } else {
        (
            WIDTH,
            &[1, 4, 16, 64, 256, 1024, 4096],
            Duration::from_millis(500),
        )
    }
}

const LAYOUTS: [TileLayout; 2] = [TileLayout::Strided, TileLayout::Padded];
const KINDS: [GemmKind; 3] = [GemmKind::F32, GemmKind::F16, GemmKind::Int8];

/// One row of the table: one format and layout at one batch size. The energy columns (joules
/// per inference above idle, the board's watts: median, min, max of the readings) are empty
/// where no energy counter could be read.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub kind: String,
    pub layout: String,
    pub batch: usize,
    pub latency_s: f64,
    pub inferences_per_s: f64,
    pub joules_per_inference: Option<f64>,
    pub joules_per_inference_min: Option<f64>,
    pub joules_per_inference_max: Option<f64>,
    pub avg_watts: Option<f64>,
    pub avg_watts_min: Option<f64>,
    pub avg_watts_max: Option<f64>,
}

/// The two charts from one table: energy per inference against batch size (only where energy
/// was read) and latency against throughput. `quick` says which sweep ran; `adapter` names the
/// GPU.
pub fn charts(rows: &[Row], quick: bool, adapter: &str) -> (Option<String>, String) {
    let (width, batches, _) = sweep(quick);
    let (mut joules, mut latency) = (Vec::new(), Vec::new());
    for layout in LAYOUTS {
        let layout_name = format!("{layout:?}").to_lowercase();
        for kind in KINDS {
            let label = format!("{} {layout_name}", kind.label());
            let (mut sj, mut sl) = (Series::new(&label), Series::new(&label));
            for r in rows
                .iter()
                .filter(|r| r.kind == kind.label() && r.layout == layout_name)
            {
                sl.point(r.inferences_per_s, r.latency_s * 1e3);
                if let (Some(j), Some(lo), Some(hi)) = (
                    r.joules_per_inference,
                    r.joules_per_inference_min,
                    r.joules_per_inference_max,
                ) {
                    sj.point_with_spread(r.batch as f64, j * 1e3, lo * 1e3, hi * 1e3);
                }
            }
            joules.push(sj);
            latency.push(sl);
        }
    }
    let energy = rows.iter().any(|r| r.joules_per_inference.is_some()).then(|| {
        LineChart {
            title: "Energy per inference against batch size".into(),
            subtitle: format!(
                "{adapter}, wgpu 30; NVML counter, idle power subtracted; median of {READINGS} readings, bars min–max"
            ),
            x_label: "batch size".into(),
            y_label: "millijoules per inference (above idle)".into(),
            log_x: true,
            log_y: true,
            series: joules,
            markers: vec![],
        }
        .to_svg()
    });
    let latency = LineChart {
        title: "Latency against throughput as the batch grows".into(),
        subtitle: format!("{adapter}, wgpu 30; one {width}×{width} layer; batches {batches:?}"),
        x_label: "inferences per second".into(),
        y_label: "latency of one batch (ms)".into(),
        log_x: true,
        log_y: true,
        series: latency,
        markers: vec![],
    }
    .to_svg();
    (energy, latency)
}

/// The latency chart's file name beside the energy figure's (`quant_h200_latency_throughput`).
pub fn latency_name(energy_name: &str) -> String {
    let stem = energy_name
        .strip_suffix("energy_batch")
        .unwrap_or(energy_name);
    format!("{stem}latency_throughput")
}

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let (width, batches, span) = sweep(args.quick);
    let meter = EnergyMeter::open();
    let mut notes = vec![
        format!(
            "one {width}×{width} layer per inference; the tiled WGSL GEMM with tile_b strided \
             (16 words a row, bank conflicts) and padded (17 words a row)"
        ),
        format!(
            "energy: {READINGS} readings of {} ms per point, median with min and max; latency: \
             median of {READINGS} timed submissions of 5 batches; joules per inference = (power \
             - idle power) × seconds per inference",
            span.as_millis()
        ),
    ];
    let idle_span = Duration::from_millis(if args.quick { 400 } else { 1000 });
    let idle = match &meter {
        Ok(m) => {
            let tick = m.watts_over_ticks(|| std::thread::sleep(idle_span))?;
            let w = tick.watts;
            notes.push(format!(
                "the NVML counter changed every {:.1} ms on average (idle, {} periods); power is \
                 averaged between its changes",
                tick.period_s * 1e3,
                tick.periods
            ));
            notes.push(format!(
                "NVML energy counter of {}; idle power {w:.1} W (read before the sweep) subtracted",
                m.gpu_name
            ));
            Some(w)
        }
        Err(e) => {
            eprintln!("energy: {e}; latency only");
            notes.push(format!("no energy measured: {e}"));
            None
        }
    };
    let name = figure_name(args, "energy_batch");
    let mut rows = Vec::new();
    for layout in LAYOUTS {
        let layout_name = format!("{layout:?}").to_lowercase();
        for kind in KINDS {
            let label = format!("{} {layout_name}", kind.label());
            for &batch in batches {
                let dims = (batch, width, width);
                let Ok(gemm) = GemmOnDevice::new_with_layout(ctx, kind, layout, dims, 2) else {
                    notes.push(format!("{label} not supported here"));
                    break;
                };
                gemm.time(ctx, 2)?; // warm-up
                let times = (0..READINGS)
                    .map(|_| gemm.time(ctx, 5))
                    .collect::<Result<Vec<_>, _>>()?;
                let (one, _, _) = median_min_max(times);
                // Each submission holds enough dispatches for a tenth of the span.
                let reps = ((span.as_secs_f64() / 10.0 / one).ceil() as usize).clamp(1, 2000);
                let mut row = Row {
                    kind: kind.label().into(),
                    layout: layout_name.clone(),
                    batch,
                    latency_s: seven_digits(one),
                    inferences_per_s: seven_digits(batch as f64 / one),
                    joules_per_inference: None,
                    joules_per_inference_min: None,
                    joules_per_inference_max: None,
                    avg_watts: None,
                    avg_watts_min: None,
                    avg_watts_max: None,
                };
                if let Some(meter) = meter.as_ref().ok().zip(idle) {
                    let readings = (0..READINGS)
                        .map(|_| energy_reading(ctx, &gemm, meter, (batch, reps), span))
                        .collect::<anyhow::Result<Vec<_>>>()?;
                    let j =
                        median_min_max(readings.iter().map(|r| r.joules_per_inference).collect());
                    let w = median_min_max(readings.iter().map(|r| r.watts).collect());
                    row.joules_per_inference = Some(seven_digits(j.0));
                    row.joules_per_inference_min = Some(seven_digits(j.1));
                    row.joules_per_inference_max = Some(seven_digits(j.2));
                    row.avg_watts = Some(seven_digits(w.0));
                    row.avg_watts_min = Some(seven_digits(w.1));
                    row.avg_watts_max = Some(seven_digits(w.2));
                    eprintln!(
                        "energy {label} batch {batch}: {:.3} ms, {:.3} mJ/inference ({:.3}–{:.3}), {:.0} W",
                        one * 1e3,
                        j.0 * 1e3,
                        j.1 * 1e3,
                        j.2 * 1e3,
                        w.0
                    );
                } else {
                    eprintln!("energy {label} batch {batch}: {:.3} ms", one * 1e3);
                }
                rows.push(row);
            }
        }
    }
    if let Ok(m) = &meter {
        let after = m.idle_watts(idle_span)?;
        notes.push(format!(
            "idle power read again after the sweep: {after:.1} W"
        ));
    }
    let (energy, latency) = charts(&rows, args.quick, &ctx.adapter.get_info().name);
    let lat_file = format!("{}.svg", latency_name(&name));
    // One CSV feeds both charts; the energy chart exists only where a counter was read.
    let files = std::iter::once(format!("{name}.csv"))
        .chain(energy.is_some().then(|| format!("{name}.svg")))
        .chain([lat_file.clone()]);
    let sidecar = Sidecar::new(
        &name,
        "Joules per inference and latency against batch size, tile_b strided and padded",
    )
    .with_adapter(ctx.report())
    .with_notes(notes)
    .with_files(files);
    let mut figure = Figure::new(sidecar).rows(&rows)?;
    if let Some(svg) = energy {
        figure = figure.chart(svg);
    }
    figure.extra(&lat_file, latency).write()?;
    Ok(())
}
