use std::time::{Duration, Instant};

use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use gpu_context::GpuContext;
use quantization::energy::EnergyMeter;
use quantization::gemm::{GemmKind, GemmOnDevice, TileLayout};

use crate::output::figure_name;

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

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let (width, batches, span): (usize, &[usize], _) = if args.quick {
        (256, &[1, 16, 64], Duration::from_millis(300))
    } else {
        (
            WIDTH,
            &[1, 4, 16, 64, 256, 1024, 4096],
            Duration::from_millis(500),
        )
    };
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
    let mut csv = Csv::new(&[
        "kind",
        "layout",
        "batch",
        "latency_s",
        "inferences_per_s",
        "joules_per_inference",
        "joules_per_inference_min",
        "joules_per_inference_max",
        "avg_watts",
        "avg_watts_min",
        "avg_watts_max",
    ]);
    let (mut joules, mut latency) = (Vec::new(), Vec::new());
    for layout in [TileLayout::Strided, TileLayout::Padded] {
        let layout_name = format!("{layout:?}").to_lowercase();
        for kind in [GemmKind::F32, GemmKind::F16, GemmKind::Int8] {
            let label = format!("{} {layout_name}", kind.label());
            let (mut sj, mut sl) = (Series::new(&label), Series::new(&label));
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
                let mut row = vec![
                    kind.label().into(),
                    layout_name.clone(),
                    batch.to_string(),
                    format!("{one:.6e}"),
                    format!("{:.6e}", batch as f64 / one),
                ];
                sl.point(batch as f64 / one, one * 1e3);
                if let Some(meter) = meter.as_ref().ok().zip(idle) {
                    let readings = (0..READINGS)
                        .map(|_| energy_reading(ctx, &gemm, meter, (batch, reps), span))
                        .collect::<anyhow::Result<Vec<_>>>()?;
                    let j =
                        median_min_max(readings.iter().map(|r| r.joules_per_inference).collect());
                    let w = median_min_max(readings.iter().map(|r| r.watts).collect());
                    for v in [j.0, j.1, j.2, w.0, w.1, w.2] {
                        row.push(format!("{v:.6e}"));
                    }
                    sj.point_with_spread(batch as f64, j.0 * 1e3, j.1 * 1e3, j.2 * 1e3);
                    eprintln!(
                        "energy {label} batch {batch}: {:.3} ms, {:.3} mJ/inference ({:.3}–{:.3}), {:.0} W",
                        one * 1e3,
                        j.0 * 1e3,
                        j.1 * 1e3,
                        j.2 * 1e3,
                        w.0
                    );
                } else {
                    row.extend(std::iter::repeat_n(String::new(), 6));
                    eprintln!("energy {label} batch {batch}: {:.3} ms", one * 1e3);
                }
                csv.row(&row);
            }
            joules.push(sj);
            latency.push(sl);
        }
    }
    if let Ok(m) = &meter {
        let after = m.idle_watts(idle_span)?;
        notes.push(format!(
            "idle power read again after the sweep: {after:.1} W"
        ));
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = ctx.adapter.get_info().name;
    if idle.is_some() {
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
        .write(&dir.join(format!("{name}.svg")))?;
    }
    let lat_name = figure_name(args, "latency_throughput");
    LineChart {
        title: "Latency against throughput as the batch grows".into(),
        subtitle: format!("{adapter}, wgpu 30; one {width}×{width} layer; batches {batches:?}"),
        x_label: "inferences per second".into(),
        y_label: "latency of one batch (ms)".into(),
        log_x: true,
        log_y: true,
        series: latency,
        markers: vec![],
    }
    .write(&dir.join(format!("{lat_name}.svg")))?;
    let mut record = Sidecar::new(
        &name,
        "Joules per inference and latency against batch size, tile_b strided and padded",
    )
    .with_adapter(ctx.report())
    .with_notes(notes);
    // One CSV feeds both charts; the energy chart exists only where a counter was read.
    record.files = std::iter::once(format!("{name}.csv"))
        .chain(idle.is_some().then(|| format!("{name}.svg")))
        .chain([format!("{lat_name}.svg")])
        .collect();
    record.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
