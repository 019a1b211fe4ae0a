//! A measured figure: rows for the CSV, a chart for the SVG, notes for the sidecar.

use bench_harness::{BarChart, Csv, LineChart, MachineInfo, Sidecar, Stats, figures_dir};

pub enum Chart {
    Bar(BarChart),
    Line(LineChart),
}

pub struct Figure {
    pub name: &'static str,
    pub description: &'static str,
    pub csv: Csv,
    pub chart: Chart,
    pub notes: Vec<String>,
}

/// The CSV columns every figure of this crate uses.
pub const COLUMNS: [&str; 7] = [
    "variant", "param", "median_s", "p10_s", "p90_s", "samples", "rate",
];

pub fn row(csv: &mut Csv, variant: &str, param: f64, s: &Stats, rate: f64) {
    csv.row(&[
        variant.to_owned(),
        format!("{param}"),
        format!("{:.6e}", s.median),
        format!("{:.6e}", s.p10),
        format!("{:.6e}", s.p90),
        s.samples.to_string(),
        format!("{rate:.6e}"),
    ]);
}

/// Under every chart title: which machine measured it. This VM has 2 cores: every parallel
/// speed-up shown is out of a possible 2×.
pub fn subtitle() -> String {
    let m = MachineInfo::detect();
    format!(
        "{} logical CPUs ({}), load average {} when measured; release build",
        m.logical_cpus,
        m.cpu_model,
        load_average()
    )
}

/// The 1-minute load average (Linux), to tell a quiet run from one that shared its cores.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

impl Figure {
    pub fn write(&self) -> std::io::Result<()> {
        let dir = figures_dir();
        let stem = format!("parallel_{}", self.name);
        self.csv.write(&dir.join(format!("{stem}.csv")))?;
        match &self.chart {
            Chart::Bar(c) => c.write(&dir.join(format!("{stem}.svg")))?,
            Chart::Line(c) => c.write(&dir.join(format!("{stem}.svg")))?,
        }
        let mut sidecar = Sidecar::new(&stem, self.description);
        sidecar.notes = self.notes.clone();
        sidecar.notes.push(format!(
            "1-minute load average after the run: {}",
            load_average()
        ));
        sidecar.write(&dir.join(format!("{stem}.json")))
    }
}

/// A bar per (label, stats, rate); the bar height is `rate` (higher is better).
pub fn bar_figure(
    name: &'static str,
    description: &'static str,
    title: &str,
    y_label: &str,
    bars: Vec<(String, Stats, f64)>,
    notes: Vec<String>,
) -> Figure {
    let mut csv = Csv::new(&COLUMNS);
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: subtitle(),
        y_label: y_label.to_owned(),
        ..Default::default()
    };
    for (label, stats, rate) in &bars {
        row(&mut csv, label, 0.0, stats, *rate);
        // The spread of a rate: the fastest and slowest samples, converted like the median.
        let scale = rate * stats.median;
        chart.bars.push((
            label.clone(),
            *rate,
            Some((scale / stats.p90, scale / stats.p10)),
        ));
    }
    Figure {
        name,
        description,
        csv,
        chart: Chart::Bar(chart),
        notes,
    }
}

/// Times several variants with their samples interleaved (A, B, C, A, B, C, …) after one
/// warm-up round, so that every variant sees the same background load on a shared machine.
pub fn interleaved(samples: usize, variants: &mut [&mut dyn FnMut()]) -> Vec<Stats> {
    let mut times = vec![Vec::with_capacity(samples); variants.len()];
    for round in 0..=samples {
        for (i, f) in variants.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            f();
            if round > 0 {
                times[i].push(start.elapsed().as_secs_f64());
            }
        }
    }
    times
        .iter()
        .map(|t| Stats::from_seconds(t).expect("at least one sample, never NaN"))
        .collect()
}
