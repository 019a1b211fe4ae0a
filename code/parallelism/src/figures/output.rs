//! A measured figure: typed rows for the CSV, the chart drawn from those rows for the SVG, notes
//! for the sidecar. `--redraw` draws through the same chart functions from the CSV.

use bench_harness::{BarChart, FigureError, MachineInfo, Sidecar, SidecarRecord, Stats};
use serde::{Deserialize, Serialize};

type Draw = dyn FnOnce(bench_harness::Figure, &str) -> Result<bench_harness::Figure, FigureError>;

pub struct Figure {
    pub name: &'static str,
    pub description: &'static str,
    /// Writes the rows into the figure and draws its chart from them, under a subtitle.
    draw: Box<Draw>,
    pub notes: Vec<String>,
}

/// The row most figures of this crate use: one variant at one parameter, its timing and a
/// rate (what the chart shows).
#[derive(Serialize, Deserialize)]
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
    bench_harness::digits::significant(x, 7)
}

/// The sidecar note that records the load average the subtitle shows.
const LOAD_NOTE: &str = "1-minute load average after the run: ";

/// Under every chart title: which machine measured it. This VM has 2 cores: every parallel
/// speed-up shown is out of a possible 2×.
fn subtitle(logical_cpus: usize, cpu: &str, load: &str) -> String {
    format!("{logical_cpus} logical CPUs ({cpu}), load average {load} when measured; release build")
}

/// The subtitle of a measured figure, from its sidecar (what `--redraw` draws under the title).
pub fn subtitle_of(sidecar: &SidecarRecord) -> String {
    let load = sidecar
        .notes
        .iter()
        .find_map(|n| n.strip_prefix(LOAD_NOTE))
        .unwrap_or("unknown");
    subtitle(sidecar.logical_cpus, &sidecar.cpu, load)
}

/// The 1-minute load average (Linux), to tell a quiet run from one that shared its cores.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

impl Figure {
    /// A figure whose chart `chart` draws from its `rows` (and the machine's subtitle).
    pub fn new<T: Serialize + 'static>(
        name: &'static str,
        description: &'static str,
        rows: Vec<T>,
        chart: impl FnOnce(&[T], &str) -> String + 'static,
        notes: Vec<String>,
    ) -> Self {
        Self {
            name,
            description,
            draw: Box::new(move |figure, subtitle| {
                let svg = chart(&rows, subtitle);
                Ok(figure.rows(&rows)?.chart(svg))
            }),
            notes,
        }
    }

    /// Writes `parallel_<name>.{csv,svg,json}` through [`bench_harness::Figure`]; the subtitle
    /// shows the load average the sidecar records, so that a redraw draws the same one.
    pub fn write(self) -> Result<(), FigureError> {
        let stem = format!("parallel_{}", self.name);
        let machine = MachineInfo::detect();
        let load = load_average();
        let mut sidecar = Sidecar::new(&stem, self.description);
        sidecar.notes = self.notes;
        sidecar.notes.push(format!("{LOAD_NOTE}{load}"));
        let subtitle = subtitle(machine.logical_cpus, &machine.cpu_model, &load);
        (self.draw)(bench_harness::Figure::new(sidecar), &subtitle)?.write()?;
        Ok(())
    }
}

/// What a bar figure's bars show, and so how its whiskers follow from the timing's spread.
#[derive(Clone, Copy)]
pub enum BarValue {
    /// A rate (higher is better): the fastest and slowest samples converted like the median.
    Rate,
    /// A time (lower is better): p10 and p90 scaled like the median.
    Time,
}

/// A bar figure: one bar per row of its CSV ([`TimingRow`]), the bar's height the row's `rate`.
pub struct BarSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub title: &'static str,
    pub y_label: &'static str,
    pub value: BarValue,
    pub log_y: bool,
}

impl BarSpec {
    /// The chart of this figure's rows.
    pub fn chart(&self, rows: &[TimingRow], subtitle: &str) -> String {
        let bars = rows
            .iter()
            .map(|r| {
                let spread = match self.value {
                    BarValue::Rate => {
                        let scale = r.rate * r.median_s;
                        (scale / r.p90_s, scale / r.p10_s)
                    }
                    BarValue::Time => {
                        let scale = r.rate / r.median_s;
                        (r.p10_s * scale, r.p90_s * scale)
                    }
                };
                (r.variant.clone(), r.rate, Some(spread))
            })
            .collect();
        BarChart {
            title: self.title.to_owned(),
            subtitle: subtitle.to_owned(),
            y_label: self.y_label.to_owned(),
            log_y: self.log_y,
            bars,
        }
        .to_svg()
    }

    /// The figure: a bar per (label, stats, value).
    pub fn figure(&'static self, bars: Vec<(String, Stats, f64)>, notes: Vec<String>) -> Figure {
        let mut rows = Vec::new();
        for (label, stats, value) in &bars {
            row(&mut rows, label, 0.0, stats, *value);
        }
        Figure::new(
            self.name,
            self.description,
            rows,
            |rows, subtitle| self.chart(rows, subtitle),
            notes,
        )
    }
}

/// A rate bar figure (the usual kind).
pub const fn rate_bars(
    name: &'static str,
    description: &'static str,
    title: &'static str,
    y_label: &'static str,
) -> BarSpec {
    BarSpec {
        name,
        description,
        title,
        y_label,
        value: BarValue::Rate,
        log_y: false,
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
