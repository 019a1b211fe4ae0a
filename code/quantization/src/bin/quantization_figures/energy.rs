use std::time::{Duration, Instant};

use bench_harness::{Csv, FigureArgs, LineChart, Series, figures_dir};
use gpu_context::GpuContext;
use quantization::energy::EnergyMeter;
use quantization::gemm::{GemmKind, GemmOnDevice};

use super::{figure_name, sidecar};

/// The "model": one 4096×4096 layer (the size of a small language model's projection).
const WIDTH: usize = 4096;

/// For each format and batch: latency of one batch, and (with a counter) joules per inference
/// above idle, from enough repetitions to fill `span`.
// ANCHOR: energy_point
/// One point of the sweep: the latency of one batch and, with a counter and the idle power,
/// joules per inference above idle and the board's average power, from back-to-back
/// submissions that fill `span` (the counter advances in steps of tens of milliseconds).
fn measure_point(
    ctx: &GpuContext,
    gemm: &GemmOnDevice,
    meter: Option<(&EnergyMeter, f64)>,
    batch: usize,
    span: Duration,
) -> anyhow::Result<(f64, Option<f64>, Option<f64>)> {
    gemm.time(ctx, 2)?;
    let one = gemm.time(ctx, 5)?;
    // Each submission holds enough dispatches for a tenth of the span.
    let reps = ((span.as_secs_f64() / 10.0 / one).ceil() as usize).clamp(1, 2000);
    let mut done = 0usize;
    let mut run = || {
        let start = Instant::now();
        while start.elapsed() < span {
            let mut e = ctx.device.create_command_encoder(&Default::default());
            gemm.record(&mut e, reps);
            ctx.queue.submit([e.finish()]);
            ctx.wait().expect("GPU wait");
            done += reps;
        }
    };
    let Some((meter, idle_watts)) = meter else {
        run();
        return Ok((one, None, None));
    };
    let (joules, seconds) = meter.measure(&mut run)?;
    let per_inference = (joules - idle_watts * seconds) / (done * batch) as f64;
    Ok((one, Some(per_inference), Some(joules / seconds)))
}
// ANCHOR_END: energy_point

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let (width, batches, span): (usize, &[usize], _) = if args.quick {
        (256, &[1, 16, 64], Duration::from_millis(30))
    } else {
        (
            WIDTH,
            &[1, 4, 16, 64, 256, 1024, 4096],
            Duration::from_millis(350),
        )
    };
    let meter = EnergyMeter::open();
    let mut notes = vec![format!(
        "one {width}×{width} layer per inference, tiled WGSL GEMM kernels"
    )];
    let idle = match &meter {
        Ok(m) => {
            let w = m.idle_watts(Duration::from_millis(if args.quick { 100 } else { 1000 }))?;
            notes.push(format!(
                "NVML energy counter of {}; idle power {w:.1} W subtracted",
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
        "batch",
        "latency_s",
        "inferences_per_s",
        "joules_per_inference",
        "avg_watts",
    ]);
    let (mut joules, mut latency) = (Vec::new(), Vec::new());
    for kind in [GemmKind::F32, GemmKind::F16, GemmKind::Int8] {
        let (mut sj, mut sl) = (Series::new(kind.label()), Series::new(kind.label()));
        for &batch in batches {
            let Ok(gemm) = GemmOnDevice::new(ctx, kind, batch, width, width, 2) else {
                notes.push(format!("{} not supported here", kind.label()));
                break;
            };
            let meter = meter.as_ref().ok().zip(idle);
            let (one, per_inference, watts) = measure_point(ctx, &gemm, meter, batch, span)?;
            let fmt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6e}"));
            csv.row(&[
                kind.label().into(),
                batch.to_string(),
                format!("{one:.6e}"),
                format!("{:.6e}", batch as f64 / one),
                fmt(per_inference),
                fmt(watts),
            ]);
            sl.point(batch as f64 / one, one * 1e3);
            if let Some(j) = per_inference {
                sj.point(batch as f64, j * 1e3);
            }
            eprintln!(
                "energy {} batch {batch}: {:.3} ms, {:?} J/inference",
                kind.label(),
                one * 1e3,
                per_inference
            );
        }
        joules.push(sj);
        latency.push(sl);
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = ctx.adapter.get_info().name;
    if idle.is_some() {
        LineChart {
            title: "Energy per inference against batch size".into(),
            subtitle: format!("{adapter}, wgpu 30; NVML counter, idle power subtracted"),
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
    let mut record = sidecar(
        &name,
        "Joules per inference and latency against batch size",
        Some(ctx),
        notes,
    );
    // One CSV feeds both charts; the energy chart exists only where a counter was read.
    record.files = std::iter::once(format!("{name}.csv"))
        .chain(idle.is_some().then(|| format!("{name}.svg")))
        .chain([format!("{lat_name}.svg")])
        .collect();
    record.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
