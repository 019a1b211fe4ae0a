//! A measured figure: rows for the CSV, a chart for the SVG, notes for the sidecar.

use bench_harness::{BarChart, FigureError, LineChart, MachineInfo, Sidecar, Stats};
use serde::Serialize;

pub enum Chart {
    Bar(BarChart),
    Line(LineChart),
}

pub struct Figure {
    pub name: &'static str,
    pub description: &'static str,
    pub table: Table,
    pub chart: Chart,
    pub notes: Vec<String>,
}

type WriteRows = dyn FnOnce(bench_harness::Figure) -> Result<bench_harness::Figure, FigureError>;

/// A figure's typed rows, kept until the figure is written (each figure has its own row type).
pub struct Table(Box<WriteRows>);

impl Table {
    pub fn rows<T: Serialize + 'static>(rows: Vec<T>) -> Self {
        Self(Box::new(move |figure| figure.rows(&rows)))
    }
}

/// The row most figures of this crate use: one variant at one parameter, its timing and a
/// rate (what the chart shows).
#[derive(Serialize)]
pub struct TimingRow {
    pub variant: String,
    pub param: f64,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
    pub samples: usize,
    pub rate: f64,
}

pub fn row(rows: &mut Vec<TimingRow>, variant: &str, param: f64, s: &Stats, rate: f64) {
    rows.push(TimingRow {
        variant: variant.to_owned(),
        param,
        median_s: sig7(s.median),
        p10_s: sig7(s.p10),
        p90_s: sig7(s.p90),
        samples: s.samples,
        rate: sig7(rate),
    });
}

/// `x` to seven significant digits: what the timing supports, without the float's noise.
pub fn sig7(x: f64) -> f64 {
    format!("{x:.6e}").parse().unwrap_or(x)
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
    /// Writes `parallel_<name>.{csv,svg,json}` through [`bench_harness::Figure`].
    pub fn write(self) -> Result<(), FigureError> {
        let stem = format!("parallel_{}", self.name);
        let svg = match &self.chart {
            Chart::Bar(c) => c.to_svg(),
            Chart::Line(c) => c.to_svg(),
        };
        let mut sidecar = Sidecar::new(&stem, self.description);
        sidecar.notes = self.notes;
        sidecar.notes.push(format!(
            "1-minute load average after the run: {}",
            load_average()
        ));
        (self.table.0)(bench_harness::Figure::new(sidecar))?
            .chart(svg)
            .write()?;
        Ok(())
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
    let mut rows = Vec::new();
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: subtitle(),
        y_label: y_label.to_owned(),
        ..Default::default()
    };
    for (label, stats, rate) in &bars {
        row(&mut rows, label, 0.0, stats, *rate);
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
        table: Table::rows(rows),
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
