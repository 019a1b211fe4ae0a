//! The CPU side of energy: which counters and frequency controls this machine exposes, and, where
//! the package counter (RAPL) can be read, joules per inference of one f32 layer on one thread and
//! on all of them (racing to idle or not).

use std::path::Path;
use std::time::{Duration, Instant};

use bench_harness::{Csv, FigureArgs, Sidecar, figures_dir};
use quantization::rapl;
use rayon::prelude::*;

use crate::output::figure_name;

/// Each probe row: what was looked for, where, whether it is there, and what was found.
fn probe_rows(found: &rapl::Probe) -> Vec<[String; 4]> {
    let mut rows = Vec::new();
    let powercap = "/sys/class/powercap";
    for z in &found.zones {
        let path = z.energy_file.display().to_string();
        rows.push(["RAPL (powercap)".into(), path, "yes".into(), z.name.clone()]);
    }
    for problem in &found.problems {
        rows.push([
            "RAPL (powercap)".into(),
            powercap.into(),
            "no".into(),
            problem.clone(),
        ]);
    }
    let pmu = Path::new("/sys/bus/event_source/devices/power/events");
    let events = std::fs::read_dir(pmu).map(|d| {
        let mut names: Vec<String> = d
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        names.join(" ")
    });
    rows.push(match events {
        Ok(names) => [
            "perf power PMU".into(),
            pmu.display().to_string(),
            "yes".into(),
            names,
        ],
        Err(e) => [
            "perf power PMU".into(),
            pmu.display().to_string(),
            "no".into(),
            e.to_string(),
        ],
    });
    let cpufreq = Path::new("/sys/devices/system/cpu/cpu0/cpufreq");
    let files = [
        "scaling_driver",
        "scaling_governor",
        "cpuinfo_min_freq",
        "cpuinfo_max_freq",
    ];
    let read = |f: &str| std::fs::read_to_string(cpufreq.join(f)).map(|s| s.trim().to_owned());
    rows.push(match read(files[0]) {
        Ok(_) => {
            let found: Vec<String> = files
                .iter()
                .map(|f| format!("{f}={}", read(f).unwrap_or_default()))
                .collect();
            [
                "cpufreq (DVFS)".into(),
                cpufreq.display().to_string(),
                "yes".into(),
                found.join(" "),
            ]
        }
        Err(e) => [
            "cpufreq (DVFS)".into(),
            cpufreq.display().to_string(),
            "no".into(),
            e.to_string(),
        ],
    });
    rows.push(msr_row());
    let guest = std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|c| c.contains(" hypervisor"));
    let answer = if guest { "yes" } else { "no" };
    rows.push([
        "virtual machine".into(),
        "/proc/cpuinfo flags".into(),
        answer.into(),
        "the CPU flag `hypervisor`".into(),
    ]);
    rows
}

/// RAPL's package counter read straight from its model-specific register (needs root and the
/// `msr` module; a hypervisor may refuse the read).
fn msr_row() -> [String; 4] {
    use std::os::unix::fs::FileExt;
    const MSR_PKG_ENERGY_STATUS: u64 = 0x611;
    let path = "/dev/cpu/0/msr";
    let mut raw = [0u8; 8];
    let read =
        std::fs::File::open(path).and_then(|f| f.read_exact_at(&mut raw, MSR_PKG_ENERGY_STATUS));
    let (available, detail) = match read {
        Ok(()) => (
            "yes",
            format!("MSR 0x611 = {}", u64::from_le_bytes(raw) & 0xffff_ffff),
        ),
        Err(e) => ("no", format!("MSR 0x611: {e}")),
    };
    ["RAPL (MSR)".into(), path.into(), available.into(), detail]
}

/// One f32 layer `y = x·Wᵀ` for `batch` inputs, its output rows split over the pool's threads.
fn layer(w: &[f32], x: &[f32], y: &mut [f32], width: usize) {
    y.par_chunks_mut(width)
        .zip(x.par_chunks(width))
        .for_each(|(y_row, x_row)| {
            y_row.par_chunks_mut(64).enumerate().for_each(|(c, out)| {
                for (i, o) in out.iter_mut().enumerate() {
                    let w_row = &w[(c * 64 + i) * width..][..width];
                    // Eight partial sums: a sum the compiler may keep in vector lanes.
                    let mut acc = [0f32; 8];
                    for (wc, xc) in w_row.chunks_exact(8).zip(x_row.chunks_exact(8)) {
                        for k in 0..8 {
                            acc[k] += wc[k] * xc[k];
                        }
                    }
                    *o = acc.iter().sum();
                }
            });
        });
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    // POWERCAP_ROOT points the program at a copy of the tree (a smoke test of the measuring path).
    let root = std::env::var_os("POWERCAP_ROOT").unwrap_or_else(|| "/sys/class/powercap".into());
    let found = rapl::probe(Path::new(&root));
    let mut probe_csv = Csv::new(&["interface", "path", "available", "detail"]);
    for row in probe_rows(&found) {
        eprintln!("cpu-energy probe: {}", row.join(" | "));
        probe_csv.row(&row);
    }
    let dir = figures_dir();
    let probe_name = figure_name(args, "cpu_energy_probe");
    probe_csv.write(&dir.join(format!("{probe_name}.csv")))?;
    let mut notes =
        vec!["which CPU energy counters and frequency controls this OS exposes".to_owned()];
    if found.zones.is_empty() {
        notes.push("no readable RAPL package counter: no CPU energy measured".into());
    }
    let mut probe_record = Sidecar::new(
        &probe_name,
        "CPU energy counters and DVFS controls visible here",
    )
    .with_notes(notes);
    probe_record.files = vec![format!("{probe_name}.csv")];
    probe_record.write(&dir.join(format!("{probe_name}.json")))?;
    if found.zones.is_empty() {
        return Ok(());
    }
    measure(args, &found)
}

/// Joules per inference above idle, on one thread and on all of them, at batch 1 and 64.
fn measure(args: &FigureArgs, meter: &rapl::Probe) -> anyhow::Result<()> {
    let width = if args.quick { 512 } else { 4096 };
    let span = Duration::from_millis(if args.quick { 50 } else { 500 });
    let idle = meter.idle_watts(span * 2).map_err(anyhow::Error::msg)?;
    let w: Vec<f32> = (0..width * width)
        .map(|i| ((i % 13) as f32 - 6.0) * 0.01)
        .collect();
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut csv = Csv::new(&[
        "threads",
        "batch",
        "latency_s",
        "joules_per_inference",
        "avg_watts",
    ]);
    for threads in [1, all] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        for batch in [1usize, 64] {
            let x = vec![0.5f32; batch * width];
            let mut y = vec![0f32; batch * width];
            let mut done = 0usize;
            pool.install(|| layer(&w, &x, &mut y, width)); // warm-up
            let (joules, seconds) = meter
                .measure(|| {
                    let start = Instant::now();
                    while start.elapsed() < span {
                        pool.install(|| layer(&w, &x, &mut y, width));
                        done += 1;
                    }
                })
                .map_err(anyhow::Error::msg)?;
            let per_inference = (joules - idle * seconds) / (done * batch) as f64;
            eprintln!(
                "cpu-energy {threads} threads batch {batch}: {per_inference:.3e} J/inference"
            );
            csv.row(&[
                threads.to_string(),
                batch.to_string(),
                format!("{:.6e}", seconds / done as f64),
                format!("{per_inference:.6e}"),
                format!("{:.6e}", joules / seconds),
            ]);
        }
    }
    let name = figure_name(args, "cpu_energy_batch");
    csv.write(&figures_dir().join(format!("{name}.csv")))?;
    let notes = vec![
        format!("one {width}×{width} f32 layer per inference, plain parallel dot products"),
        format!(
            "RAPL package counters {}; idle power {idle:.1} W subtracted",
            meter.zones.len()
        ),
    ];
    let mut record = Sidecar::new(
        &name,
        "CPU joules per inference, one thread and all threads",
    )
    .with_notes(notes);
    record.files = vec![format!("{name}.csv")];
    record.write(&figures_dir().join(format!("{name}.json")))?;
    Ok(())
}
