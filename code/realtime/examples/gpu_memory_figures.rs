//! Know your system: what kind of GPU memory is there, and what does moving data cost?
//! Prints the adapter's type and whether it offers `MAPPABLE_PRIMARY_BUFFERS` (buffers the CPU
//! can map *and* the GPU can use directly, which is cheap only where both share memory), then
//! times uploads and read-backs, and splits a read-back into its steps (the GPU's copy, the
//! mapping, copying out into a new `Vec` or into a reused one). Writes `figures/realtime_gpu_memory[_<machine>].{csv,svg,json}`.
//!
//! ```console
//! cargo run --release -p realtime --example gpu_memory_figures -- --quick --allow-dirty --allow-busy
//! ```

use std::time::{Duration, Instant};

use anyhow::Context;
use bench_harness::{
    BarChart, Drawn, Figure, FigureArgs, FigureError, Found, RedrawReport, Sidecar,
};
use gpu_context::{GpuContext, ReadbackBuffer, wgpu};
use realtime::latency::LatencyRecorder;

fn main() -> anyhow::Result<()> {
    let args = &FigureArgs::parse_with_about(
        "GPU memory: adapter type, mappable primary buffers, upload and read-back latency",
    );
    // `--redraw` measures nothing and opens no adapter: it draws the chart from the CSV.
    if args.redraw {
        redraw(args)?;
        return Ok(());
    }
    args.start(&["memory"])?;
    let ctx = GpuContext::new()?;
    let info = ctx.adapter.get_info();
    // ANCHOR: mappable
    let mappable = ctx
        .adapter
        .features()
        .contains(wgpu::Features::MAPPABLE_PRIMARY_BUFFERS);
    // Offered is not cheap: map the GPU's own buffers only where CPU and GPU share memory.
    let shared_memory = matches!(
        info.device_type,
        wgpu::DeviceType::IntegratedGpu | wgpu::DeviceType::Cpu
    );
    let map_directly = mappable && shared_memory;
    println!(
        "{} ({:?}, {:?}): MAPPABLE_PRIMARY_BUFFERS {}; {}",
        info.name,
        info.device_type,
        info.backend,
        if mappable { "offered" } else { "not offered" },
        if map_directly {
            "map the GPU's buffers directly"
        } else {
            "stage uploads and read-backs through copies"
        }
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
    let mut rows: Vec<TransferRow> = Vec::new();
    for &bytes in sizes {
        let data = vec![1u8; bytes as usize];
        let buffer = ctx.storage_buffer("data", bytes)?;
        let readback = ReadbackBuffer::new(&ctx, bytes)?;
        let mut upload = LatencyRecorder::new();
        let mut download = LatencyRecorder::new();
        let mut steps: [LatencyRecorder; 4] = std::array::from_fn(|_| LatencyRecorder::new());
        let mut reused = Vec::new();
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
            // Copy out into a new Vec and into a reused one on alternate transfers, so that
            // neither reads the mapping after the other has pulled it into the caches.
            let into_new = i % 2 == 0;
            let [gpu_copy, map, copy_out] =
                read_back_in_steps(&ctx, &buffer, &readback, into_new, &mut reused)?;
            anyhow::ensure!(reused == data, "the split read-back returned other bytes");
            if i >= 5 {
                upload.record(up);
                download.record(down);
                steps[0].record(gpu_copy);
                steps[1].record(map);
                steps[if into_new { 2 } else { 3 }].record(copy_out);
            }
        }
        for (op, rec) in [
            ("upload (write_buffer + wait)", &upload),
            ("read-back (copy + map + wait)", &download),
            ("read-back step: GPU copy (submit + wait)", &steps[0]),
            ("read-back step: map (map_async + poll)", &steps[1]),
            ("read-back step: copy out into a new Vec", &steps[2]),
            ("read-back step: copy out into a reused Vec", &steps[3]),
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
            // Whole nanoseconds in µs (three decimals): the chart is drawn from these columns,
            // and its labels keep three significant figures even below 10 µs.
            rows.push(TransferRow {
                operation: op.to_owned(),
                bytes,
                iterations: s.iterations,
                p50_us: us(s.p50_ns),
                p99_us: us(s.p99_ns),
                max_us: us(s.max_ns),
            });
        }
    }
    let mut sidecar = Sidecar::new(
        &name,
        "GPU upload and read-back latency; adapter type and mappable primary buffers",
    );
    sidecar.set_adapter(ctx.report());
    sidecar.notes.push(format!(
        "device_type {:?}; MAPPABLE_PRIMARY_BUFFERS {}; {iterations} timed transfers per size after 5 warm-up ones",
        info.device_type,
        if mappable { "offered" } else { "not offered" }
    ));
    let adapter = format!("{} ({:?})", info.name, info.device_type);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(transfers_chart(&rows, &adapter))
        .write()?;
    Ok(())
}

/// The p99 of every operation at every size (whisker: p50 to max), in µs as the table has them,
/// under the adapter's name and type.
fn transfers_chart(rows: &[TransferRow], adapter: &str) -> String {
    let bars = rows
        .iter()
        .map(|r| {
            let op = r.operation.as_str();
            let short = match op.split_once(": ") {
                Some((_, step)) => step.split(" (").next().unwrap_or(step),
                None => op.split(' ').next().unwrap_or(op),
            };
            (
                format!("{short} {} KiB", r.bytes >> 10),
                r.p99_us,
                Some((r.p50_us, r.max_us)),
            )
        })
        .collect();
    BarChart {
        title: "Moving data to and from the GPU: p99 per transfer (whisker: p50 to max)".into(),
        subtitle: adapter.to_owned(),
        y_label: "p99 (µs)".into(),
        log_y: true,
        bars,
    }
    .to_svg()
}

/// `--redraw`: the chart of every run in the folder, from its CSV and its sidecar's adapter.
fn redraw(args: &FigureArgs) -> anyhow::Result<RedrawReport> {
    args.check_parts(&["memory"])?;
    Ok(args.redraw("gpu_memory_figures", &SOURCES, redraw_one)?)
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/realtime/examples/gpu_memory_figures.rs"];

fn redraw_one(found: &Found) -> Result<Drawn, FigureError> {
    Ok(Drawn::chart(
        found,
        transfers_chart(&found.rows()?, &found.adapter_label()),
    ))
}

/// One operation at one size in `realtime_gpu_memory*.csv`.
#[derive(serde::Serialize, serde::Deserialize)]
struct TransferRow {
    operation: String,
    bytes: u64,
    iterations: u64,
    p50_us: f64,
    p99_us: f64,
    max_us: f64,
}

// ANCHOR: steps
/// One read-back of `source`, step by step: the GPU's copy into the mappable buffer (submitted
/// and waited for), the mapping, then copying the mapped bytes out, into a new `Vec` (as
/// `ReadbackBuffer::read` does) when `into_new`, else into `reused`, which keeps its capacity
/// between calls. Returns the three steps' times; the copy-out lands in `reused` either way.
fn read_back_in_steps(
    ctx: &GpuContext,
    source: &wgpu::Buffer,
    readback: &ReadbackBuffer,
    into_new: bool,
    reused: &mut Vec<u8>,
) -> anyhow::Result<[Duration; 3]> {
    let bytes = source.size();
    let start = Instant::now();
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(source, 0, readback.buffer(), 0, bytes);
    ctx.queue.submit([encoder.finish()]);
    ctx.wait()?;
    let copied = Instant::now();
    let slice = readback.buffer().slice(..bytes);
    let (done, result) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = done.send(r);
    });
    ctx.wait()?;
    result.recv().context("the map callback never ran")??;
    let mapped = Instant::now();
    let view = slice
        .get_mapped_range()
        .context("reading the mapped range")?;
    if into_new {
        *reused = view.to_vec(); // the old allocation is freed, a new one touched page by page
    } else {
        reused.clear();
        reused.extend_from_slice(&view);
    }
    let out = Instant::now();
    drop(view);
    readback.buffer().unmap();
    Ok([copied - start, mapped - copied, out - mapped])
}
// ANCHOR_END: steps

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;

    use super::*;

    #[test]
    fn redrawing_the_committed_figures_reproduces_every_svg() {
        let committed = CommittedFigures::copy("gpu_memory_figures", &SOURCES).unwrap();
        assert_eq!(committed.names().len(), 3, "{:?}", committed.names());
        let report = redraw(&committed.args()).unwrap();
        assert!(report.kept.is_empty(), "{:?}", report.kept);
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 3);
    }
}
