//! Host↔device bandwidth against transfer size, for the two upload paths and the download.
//!
//! Timed with the CPU clock from before the CPU touches the data to after the GPU has finished:
//! GPU timestamps would see only the copy on the device, not the CPU's copy into staging memory,
//! the submission, the wait or the CPU's copy out of mapped memory, which are most of a small
//! transfer's cost. The device's copies are also timed on their own, with GPU timestamps where
//! the adapter has them, to show how much of a transfer they are.

use std::time::Instant;

use bench_harness::digits::round_to;
use bench_harness::{Drawn, Figure, Found, LineChart, Progress, Series, Stats};
use computational_graphs::rng::SplitMix64;
use computational_graphs::transfers::{TransferBuffers, TransferError};
use gpu_context::{GpuContext, TimingSource};

use crate::args::Args;
use crate::charts::{gpu_subtitle, subtitle};

pub const PATHS: [&str; 5] = [
    "upload: write_buffer",
    "upload: mapped staging + copy",
    "download: copy + map_async",
    "device copy only: staging → device",
    "device copy only: device → read-back",
];

/// 4 KiB, 16 KiB, … up to 256 MiB (16 MiB with `--quick`).
fn sizes(quick: bool) -> Vec<usize> {
    let top = if quick { 16 << 20 } else { 256 << 20 };
    std::iter::successors(Some(4usize << 10), |s| Some(s * 4))
        .take_while(|&s| s <= top)
        .collect()
}

/// (warm-up, samples): large transfers take long enough that fewer samples give a steady median.
fn effort(quick: bool, bytes: usize) -> (usize, usize) {
    match (quick, bytes >= 64 << 20) {
        (true, _) => (1, 5),
        (false, false) => (3, 30),
        (false, true) => (2, 10),
    }
}

/// Runs `transfer` untimed `warmup` times, then `samples` times on the CPU clock.
pub fn timed(
    warmup: usize,
    samples: usize,
    mut transfer: impl FnMut() -> Result<(), TransferError>,
) -> Result<Stats, TransferError> {
    for _ in 0..warmup {
        transfer()?;
    }
    let mut seconds = Vec::with_capacity(samples);
    for _ in 0..samples.max(1) {
        let start = Instant::now();
        transfer()?;
        seconds.push(start.elapsed().as_secs_f64());
    }
    Ok(Stats::from_seconds(&seconds).expect("at least one sample, never NaN"))
}

/// The device's copy in each direction on its own, and where its times came from.
fn time_device_copies(
    ctx: &GpuContext,
    buffers: &TransferBuffers,
    warmup: usize,
    samples: usize,
) -> Result<(Stats, Stats, &'static str), TransferError> {
    let (mut up, mut down) = (Vec::new(), Vec::new());
    let mut timing = "cpu-wall-clock";
    for i in 0..warmup + samples.max(1) {
        let [u, d] = buffers.time_device_copies(ctx)?;
        if u.source == TimingSource::GpuTimestamps {
            timing = "gpu-timestamps";
        }
        if i >= warmup {
            up.push(u.time.as_secs_f64());
            down.push(d.time.as_secs_f64());
        }
    }
    let stats = |s: &[f64]| Stats::from_seconds(s).expect("at least one sample, never NaN");
    Ok((stats(&up), stats(&down), timing))
}

/// One path at one size of `{prefix}_transfers.csv`; the chart is drawn from these rows, by the
/// measuring run and by `--redraw` alike.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct TransferRow {
    path: String,
    bytes: usize,
    median_us: f64,
    p10_us: f64,
    p90_us: f64,
    median_gb_s: f64,
    p10_gb_s: f64,
    p90_gb_s: f64,
    samples: usize,
    timing: String,
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let sizes = sizes(args.quick);
    let mut csv: Vec<TransferRow> = Vec::new();
    let progress = Progress::new(sizes.len() as u64, "transfers");
    let mut rng = SplitMix64::new(0x7a5f);
    for &bytes in &sizes {
        progress.step(&format!("{} KiB", bytes >> 10));
        let buffers = TransferBuffers::new(ctx, bytes)?;
        let data: Vec<u8> = (0..bytes).map(|_| rng.next_u64() as u8).collect();
        // Touched once here, so that no sample pays for the first write to a fresh page.
        let mut back = vec![0u8; bytes];
        let (warmup, samples) = effort(args.quick, bytes);
        let (up_copy, down_copy, copy_timing) = time_device_copies(ctx, &buffers, warmup, samples)?;
        let stats = [
            timed(warmup, samples, || {
                buffers.upload_with_write_buffer(ctx, &data)
            })?,
            timed(warmup, samples, || {
                buffers.upload_through_staging(ctx, &data)
            })?,
            timed(warmup, samples, || buffers.download(ctx, &mut back))?,
            up_copy,
            down_copy,
        ];
        if back != data {
            return Err(format!("{bytes} bytes came back different from what went up").into());
        }
        let timings = ["cpu-wall-clock"; 3].into_iter().chain([copy_timing; 2]);
        for ((path, s), timing) in PATHS.iter().zip(&stats).zip(timings) {
            let gb_s = |seconds: f64| bytes as f64 / seconds / 1e9;
            csv.push(TransferRow {
                path: (*path).to_owned(),
                bytes,
                median_us: round_to(s.median * 1e6, 2),
                p10_us: round_to(s.p10 * 1e6, 2),
                p90_us: round_to(s.p90 * 1e6, 2),
                median_gb_s: round_to(gb_s(s.median), 4),
                // The slowest samples give the lowest bandwidth: p10 of GB/s is p90 of time.
                p10_gb_s: round_to(gb_s(s.p90), 4),
                p90_gb_s: round_to(gb_s(s.p10), 4),
                samples: s.samples,
                timing: timing.to_owned(),
            });
        }
    }
    progress.finish();
    let name = format!("{}_transfers", args.prefix);
    let sidecar = args.sidecar(
        &name,
        "host-to-device and device-to-host transfers, 4 KiB upward in powers of 4: median and \
         p10/p90 GB/s of the CPU wall clock from the first CPU copy to the GPU's completion, and \
         of the device's copies alone (GPU timestamps where the adapter has them)",
        Some(ctx.report()),
    );
    Figure::new(sidecar)
        .rows(&csv)?
        .chart(chart(subtitle(ctx, args), &csv).to_svg())
        .write()?;
    Ok(())
}

/// The bandwidth chart: one line per path, in the order of `PATHS` (a path the table names that
/// `PATHS` does not is drawn after them), GB/s against bytes.
pub fn chart(subtitle: String, rows: &[TransferRow]) -> LineChart {
    let mut series: Vec<Series> = PATHS.iter().map(|p| Series::new(p)).collect();
    for r in rows {
        let line = match series.iter().position(|s| s.name == r.path) {
            Some(i) => &mut series[i],
            None => {
                series.push(Series::new(&r.path));
                series.last_mut().expect("just pushed")
            }
        };
        line.point_with_spread(r.bytes as f64, r.median_gb_s, r.p10_gb_s, r.p90_gb_s);
    }
    LineChart {
        title: "Host↔device transfers: bandwidth against size".into(),
        subtitle,
        x_label: "bytes per transfer (log)".into(),
        y_label: "GB/s (log): CPU clock; device copies: GPU timestamps".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
}

/// `--redraw` of `{prefix}_transfers`: the chart again from its rows, subtitled from the sidecar.
pub fn redraw(found: &Found) -> Result<Drawn, Box<dyn std::error::Error>> {
    let rows: Vec<TransferRow> = found.rows()?;
    Ok(Drawn::chart(
        found,
        chart(gpu_subtitle(found)?, &rows).to_svg(),
    ))
}
