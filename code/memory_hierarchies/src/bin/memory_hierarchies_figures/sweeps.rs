//! The latency and bandwidth sweeps over working-set sizes, and the first-touch cost of pages.

use bench_harness::{Csv, LineChart, MachineInfo, Progress, Series, black_box, measure_durations};
use memory_hierarchies::{bandwidth, latency, virtual_memory};

use crate::clock::{self, measure};
use crate::config::Config;
use crate::report::{Row, bar_figure, write_all};

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
    let mut lat = Series::new("pointer chase");
    let mut read = Series::new("sequential read");
    let mut write = Series::new("sequential write");
    // One sweep measures both, but each figure gets its own data file.
    let mut latency_csv = Csv::new(&[
        "bytes",
        "latency_ns_median",
        "latency_ns_p10",
        "latency_ns_p90",
        "samples",
    ]);
    let mut bandwidth_csv = Csv::new(&[
        "bytes",
        "read_gb_s_median",
        "read_gb_s_p10",
        "read_gb_s_p90",
        "write_gb_s_median",
        "write_gb_s_p10",
        "write_gb_s_p90",
        "samples",
    ]);
    let progress = Progress::new(sizes.len() as u64, "latency + bandwidth");
    for &bytes in &sizes {
        progress.step(&format!("{} KiB", bytes >> 10));
        let n = bytes / size_of::<usize>();
        let next = latency::random_cycle(n, 7);
        let s = measure(cfg.warmup, cfg.samples, || {
            black_box(latency::chase(black_box(&next), hops));
        });
        let ns = |t: f64| t * 1e9 / hops as f64;
        lat.point_with_spread(bytes as f64, ns(s.median), ns(s.p10), ns(s.p90));
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
        let gbs = |t: f64| (bytes * passes) as f64 / t / 1e9;
        read.point_with_spread(bytes as f64, gbs(r.median), gbs(r.p90), gbs(r.p10));
        write.point_with_spread(bytes as f64, gbs(w.median), gbs(w.p90), gbs(w.p10));
        latency_csv.row(&[
            bytes.to_string(),
            format!("{:.3}", ns(s.median)),
            format!("{:.3}", ns(s.p10)),
            format!("{:.3}", ns(s.p90)),
            s.samples.to_string(),
        ]);
        // A shorter time is a higher bandwidth: p10 of the time is p90 of the bandwidth.
        bandwidth_csv.row(&[
            bytes.to_string(),
            format!("{:.2}", gbs(r.median)),
            format!("{:.2}", gbs(r.p90)),
            format!("{:.2}", gbs(r.p10)),
            format!("{:.2}", gbs(w.median)),
            format!("{:.2}", gbs(w.p90)),
            format!("{:.2}", gbs(w.p10)),
            r.samples.to_string(),
        ]);
    }
    progress.finish();

    let markers: Vec<(f64, String)> = machine
        .caches
        .iter()
        .filter(|c| c.kind != "Instruction")
        .map(|c| {
            (
                c.bytes as f64,
                format!("L{} {} KiB", c.level, c.bytes >> 10),
            )
        })
        .collect();
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
    let latency_chart = LineChart {
        title: "Load latency by working-set size (dependent pointer chase)".into(),
        subtitle: machine.summary(),
        x_label: "working set (bytes)".into(),
        y_label: "ns per load".into(),
        log_x: true,
        log_y: true,
        series: vec![lat],
        markers: markers.clone(),
    };
    write_all(
        "memory_latency",
        &latency_csv,
        &latency_chart.to_svg(),
        "Latency of a dependent load by working-set size",
        notes.clone(),
    )?;
    let bandwidth_chart = LineChart {
        title: "Sequential bandwidth by working-set size".into(),
        subtitle: machine.summary(),
        x_label: "working set (bytes)".into(),
        y_label: "GB/s".into(),
        log_x: true,
        log_y: true,
        series: vec![read, write],
        markers,
    };
    write_all(
        "memory_bandwidth",
        &bandwidth_csv,
        &bandwidth_chart.to_svg(),
        "Sequential read and write bandwidth by working-set size",
        notes,
    )?;
    println!("wrote figures/memory_latency.* and figures/memory_bandwidth.*");
    Ok(())
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
        "ns per page",
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
