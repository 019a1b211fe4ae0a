//! The latency and bandwidth sweeps over working-set sizes, and the first-touch cost of pages.

use bench_harness::digits::round_to;
use bench_harness::{
    CacheRecord, LineChart, MachineInfo, Progress, Series, black_box, measure_durations,
};
use memory_hierarchies::{bandwidth, latency, virtual_memory};
use serde::{Deserialize, Serialize};

use crate::clock::{self, measure};
use crate::config::Config;
use crate::report::{Row, bar_figure, write_rows};

/// Working-set sizes from 4 KiB to `max`, four per doubling.
fn sizes(max: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut k = 0;
    loop {
        let bytes = (4096.0 * 2f64.powf(k as f64 / 4.0)) as usize / 64 * 64;
        if bytes > max {
            return out;
        }
        out.push(bytes);
        k += 1;
    }
}

pub fn latency_and_bandwidth(cfg: &Config, machine: &MachineInfo) -> std::io::Result<()> {
    let max = cfg.big;
    let sizes = sizes(max);
    let hops = if cfg.quick { 100_000 } else { 500_000 };
    // One sweep measures both, but each figure gets its own data file.
    let mut latency_rows = Vec::new();
    let mut bandwidth_rows = Vec::new();
    let progress = Progress::new(sizes.len() as u64, "latency + bandwidth");
    for &bytes in &sizes {
        progress.step(&format!("{} KiB", bytes >> 10));
        let n = bytes / size_of::<usize>();
        let next = latency::random_cycle(n, 7);
        let s = measure(cfg.warmup, cfg.samples, || {
            black_box(latency::chase(black_box(&next), hops));
        });
        let ns = |t: f64| round_to(t * 1e9 / hops as f64, 3);
        drop(next);

        // Bandwidth: enough passes that each sample moves at least 64 MiB.
        let mut data = vec![1u64; bytes / 8];
        let passes = ((64 << 20) / bytes).max(1);
        let r = measure(cfg.warmup, cfg.samples, || {
            for _ in 0..passes {
                black_box(bandwidth::read_sum(black_box(&data)));
            }
        });
        let w = measure(cfg.warmup, cfg.samples, || {
            for p in 0..passes {
                bandwidth::write_fill(black_box(&mut data), p as u64);
            }
        });
        let gbs = |t: f64| round_to((bytes * passes) as f64 / t / 1e9, 2);
        latency_rows.push(LatencyRow {
            bytes,
            latency_ns_median: ns(s.median),
            latency_ns_p10: ns(s.p10),
            latency_ns_p90: ns(s.p90),
            samples: s.samples,
        });
        // A shorter time is a higher bandwidth: p10 of the time is p90 of the bandwidth.
        bandwidth_rows.push(BandwidthRow {
            bytes,
            read_gb_s_median: gbs(r.median),
            read_gb_s_p10: gbs(r.p90),
            read_gb_s_p90: gbs(r.p10),
            write_gb_s_median: gbs(w.median),
            write_gb_s_p10: gbs(w.p90),
            write_gb_s_p90: gbs(w.p10),
            samples: r.samples,
        });
    }
    progress.finish();

    // As the sidecar records them, which is where a redraw finds them.
    let caches: Vec<CacheRecord> = machine
        .caches
        .iter()
        .map(|c| CacheRecord {
            level: c.level,
            kind: c.kind.clone(),
            bytes: c.bytes,
            shared_by: c.shared_by,
        })
        .collect();
    let summary = machine.summary();
    let notes = vec![
        format!("{hops} dependent loads per sample over a random cycle (Sattolo), 8-byte slots"),
        format!(
            "samples per point: {}, after {} warm-up run(s)",
            cfg.samples, cfg.warmup
        ),
        "bandwidth: each sample makes enough passes to move at least 64 MiB".into(),
        "base 4 KiB pages; transparent huge pages set to madvise (not used by this program)".into(),
        clock::description().into(),
    ];
    write_rows(
        "memory_latency",
        &latency_rows,
        latency_chart(&summary, &caches, &latency_rows),
        "Latency of a dependent load by working-set size",
        notes.clone(),
    )?;
    write_rows(
        "memory_bandwidth",
        &bandwidth_rows,
        bandwidth_chart(&summary, &caches, &bandwidth_rows),
        "Sequential read and write bandwidth by working-set size",
        notes,
    )?;
    println!("wrote figures/memory_latency.* and figures/memory_bandwidth.*");
    Ok(())
}

/// One working-set size of `memory_latency.csv`: ns per dependent load.
#[derive(Serialize, Deserialize)]
pub struct LatencyRow {
    bytes: usize,
    latency_ns_median: f64,
    latency_ns_p10: f64,
    latency_ns_p90: f64,
    samples: usize,
}

/// One working-set size of `memory_bandwidth.csv`: GB/s read and written.
#[derive(Serialize, Deserialize)]
pub struct BandwidthRow {
    bytes: usize,
    read_gb_s_median: f64,
    read_gb_s_p10: f64,
    read_gb_s_p90: f64,
    write_gb_s_median: f64,
    write_gb_s_p10: f64,
    write_gb_s_p90: f64,
    samples: usize,
}

/// A vertical marker at each data cache's size, named by its level.
fn cache_markers(caches: &[CacheRecord]) -> Vec<(f64, String)> {
    caches
        .iter()
        .filter(|c| c.kind != "Instruction")
        .map(|c| {
            (
                c.bytes as f64,
                format!("L{} {} KiB", c.level, c.bytes >> 10),
            )
        })
        .collect()
}

/// ns per load against the working set; `machine` is the machine's summary, `caches` its caches.
pub fn latency_chart(machine: &str, caches: &[CacheRecord], rows: &[LatencyRow]) -> String {
    let mut lat = Series::new("pointer chase");
    for r in rows {
        let (median, p10, p90) = (r.latency_ns_median, r.latency_ns_p10, r.latency_ns_p90);
        lat.point_with_spread(r.bytes as f64, median, p10, p90);
    }
    LineChart {
        title: "Load latency by working-set size (dependent pointer chase)".into(),
        subtitle: machine.to_owned(),
        x_label: "working set (bytes)".into(),
        y_label: "ns per load".into(),
        log_x: true,
        log_y: true,
        series: vec![lat],
        markers: cache_markers(caches),
    }
    .to_svg()
}

/// GB/s read and written against the working set, with the caches marked.
pub fn bandwidth_chart(machine: &str, caches: &[CacheRecord], rows: &[BandwidthRow]) -> String {
    let mut read = Series::new("sequential read");
    let mut write = Series::new("sequential write");
    for r in rows {
        let x = r.bytes as f64;
        read.point_with_spread(x, r.read_gb_s_median, r.read_gb_s_p10, r.read_gb_s_p90);
        write.point_with_spread(x, r.write_gb_s_median, r.write_gb_s_p10, r.write_gb_s_p90);
    }
    LineChart {
        title: "Sequential bandwidth by working-set size".into(),
        subtitle: machine.to_owned(),
        x_label: "working set (bytes)".into(),
        y_label: "GB/s".into(),
        log_x: true,
        log_y: true,
        series: vec![read, write],
        markers: cache_markers(caches),
    }
    .to_svg()
}

pub fn first_touch(cfg: &Config) -> std::io::Result<()> {
    let bytes = cfg.big;
    let pages = bytes / virtual_memory::PAGE;
    let mut second = Vec::new();
    let first = measure_durations(cfg.warmup, cfg.samples, || {
        // A fresh zeroed allocation this large is mapped lazily: no page exists yet.
        let mut buf = vec![0u8; bytes];
        let t = clock::time(|| {
            black_box(virtual_memory::touch_pages(&mut buf, 1));
        });
        let again = clock::time(|| {
            black_box(virtual_memory::touch_pages(&mut buf, 2));
        });
        second.push(again.as_secs_f64());
        t
    });
    let second = bench_harness::Stats::from_seconds(&second[cfg.warmup..])
        .expect("one second-touch time per sample");
    bar_figure(
        "memory_first_touch",
        "Writing one byte per 4 KiB page: first touch vs second",
        &[
            Row::new("second touch (page mapped)", pages, second),
            Row::new("first touch (page fault)", pages, first),
        ],
        vec![
            format!("{} MiB fresh allocation, {pages} pages", bytes >> 20),
            clock::description().into(),
        ],
    )
}
