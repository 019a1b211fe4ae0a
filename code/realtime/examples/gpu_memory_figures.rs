//! Know your system: what kind of GPU memory is there, and what does moving data cost?
//! Prints the adapter's type and whether it offers `MAPPABLE_PRIMARY_BUFFERS` (buffers the CPU
//! can map *and* the GPU can use directly, which is cheap only where both share memory), then
//! times uploads and read-backs. Writes `figures/realtime_gpu_memory[_<machine>].{csv,svg,json}`.
//!
//! ```console
//! cargo run --release -p realtime --example gpu_memory_figures -- --quick --allow-dirty --allow-busy
//! ```

use std::time::Instant;

use anyhow::Context;
use bench_harness::{BarChart, Csv, FigureArgs, Sidecar, figures_dir};
use gpu_context::{GpuContext, ReadbackBuffer, wgpu};
use realtime::latency::LatencyRecorder;

fn main() -> anyhow::Result<()> {
    let args = &FigureArgs::parse_with_about(
        "GPU memory: adapter type, mappable primary buffers, upload and read-back latency",
    );
    args.start(&["memory"])?;
    let ctx = GpuContext::new()?;
    let info = ctx.adapter.get_info();
    // ANCHOR: mappable
    let mappable = ctx
        .adapter
        .features()
        .contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
    println!(
        "{} ({:?}, {:?}): MAPPABLE_PRIMARY_BUFFERS {}",
        info.name,
        info.device_type,
        info.backend,
        if mappable { "offered" } else { "not offered" }
    );
    // ANCHOR_END: mappable

    let iterations = if args.quick { 20 } else { 200 };
    let sizes: &[u64] = if args.quick {
        &[64 << 10]
    } else {
        &[64 << 10, 4 << 20, 64 << 20]
    };
    let suffix = args
        .machine
        .as_deref()
        .map_or_else(String::new, |m| format!("_{m}"));
    let name = format!("realtime_gpu_memory{suffix}");
    let mut csv = Csv::new(&[
        "operation",
        "bytes",
        "iterations",
        "p50_us",
        "p99_us",
        "max_us",
    ]);
    let mut chart = BarChart {
        title: "Moving data to and from the GPU: p99 per transfer (whisker: p50 to max)".into(),
        subtitle: format!("{} ({:?})", info.name, info.device_type),
        y_label: "p99 (µs)".into(),
        log_y: true,
        bars: Vec::new(),
    };
    for &bytes in sizes {
        let data = vec![1u8; bytes as usize];
        let buffer = ctx.storage_buffer("data", bytes)?;
        let readback = ReadbackBuffer::new(&ctx, bytes)?;
        let mut upload = LatencyRecorder::new();
        let mut download = LatencyRecorder::new();
        for i in 0..iterations + 5 {
            let start = Instant::now();
            ctx.queue.write_buffer(&buffer, 0, &data);
            ctx.queue.submit([]);
            ctx.wait()?;
            let up = start.elapsed();
            let start = Instant::now();
            let back: Vec<u8> = readback.read(&ctx, &buffer)?;
            let down = start.elapsed();
            anyhow::ensure!(
                back.len() == data.len(),
                "read back {} of {bytes} bytes",
                back.len()
            );
            if i >= 5 {
                upload.record(up);
                download.record(down);
            }
        }
        for (op, rec) in [
            ("upload (write_buffer + wait)", &upload),
            ("read-back (copy + map + wait)", &download),
        ] {
            let s = rec.summary();
            let us = |ns: u64| ns as f64 / 1000.0;
            println!(
                "{op:<32} {:>9} B  p50 {:>9.1} us  p99 {:>9.1} us  max {:>9.1} us",
                bytes,
                us(s.p50_ns),
                us(s.p99_ns),
                us(s.max_ns)
            );
            csv.row(&[
                op.into(),
                bytes.to_string(),
                s.iterations.to_string(),
                format!("{:.1}", us(s.p50_ns)),
                format!("{:.1}", us(s.p99_ns)),
                format!("{:.1}", us(s.max_ns)),
            ]);
            chart.bars.push((
                format!("{} {} KiB", op.split(' ').next().unwrap_or(op), bytes >> 10),
                us(s.p99_ns),
                Some((us(s.p50_ns), us(s.max_ns))),
            ));
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))
        .with_context(|| format!("writing into {}", dir.display()))?;
    chart.write(&dir.join(format!("{name}.svg")))?;
    let mut sidecar = Sidecar::new(
        &name,
        "GPU upload and read-back latency; adapter type and mappable primary buffers",
    );
    sidecar.adapter_json = Some(ctx.report().to_json());
    sidecar.notes.push(format!(
        "device_type {:?}; MAPPABLE_PRIMARY_BUFFERS {}; {iterations} timed transfers per size after 5 warm-up ones",
        info.device_type,
        if mappable { "offered" } else { "not offered" }
    ));
    sidecar.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
