//! Writing one figure: CSV + SVG + sidecar, all from the same rows.

use bench_harness::digits::{round_to, significant};
use bench_harness::{BarChart, Figure, MachineInfo, Sidecar, Stats};
use serde::{Deserialize, Serialize};

/// One measured variant: `stats` are seconds per run, `items` how many elements one run handles.
pub struct Row {
    pub label: String,
    pub items: usize,
    pub stats: Stats,
    pub note: String,
}

impl Row {
    pub fn new(label: &str, items: usize, stats: Stats) -> Self {
        Self {
            label: label.to_owned(),
            items,
            stats,
            note: String::new(),
        }
    }

    pub fn with_note(mut self, note: String) -> Self {
        self.note = note;
        self
    }

    pub fn ns_per_item(&self, seconds: f64) -> f64 {
        seconds * 1e9 / self.items.max(1) as f64
    }
}

/// One variant of a bar comparison's table.
#[derive(Serialize, Deserialize)]
pub struct BarRow {
    variant: String,
    elements: usize,
    median_s: f64,
    p10_s: f64,
    p90_s: f64,
    samples: usize,
    ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    ratio_to_first: f64,
    note: String,
}

/// `x` to seven significant digits.
fn sig7(x: f64) -> f64 {
    significant(x, 7)
}

/// What one element of each bar figure is, where it is not an element: the y axis's unit.
const BAR_UNITS: [(&str, &str); 4] = [
    ("memory_aliasing_chain", "ns per matrix product"),
    ("memory_hash_maps", "ns per lookup"),
    ("memory_scratch", "ns per iteration"),
    ("memory_first_touch", "ns per page"),
];

/// Writes `figures/<name>.{csv,svg,json}` for a bar comparison in nanoseconds per element (or
/// per what [`BAR_UNITS`] says); the `ratio` column is each row's median over the first row's, so
/// the book can quote it as is. The title is also the sidecar's description.
pub fn bar_figure(
    name: &str,
    title: &str,
    rows: &[Row],
    notes: Vec<String>,
) -> std::io::Result<()> {
    let machine = MachineInfo::detect();
    let mut table: Vec<BarRow> = Vec::new();
    let base = rows.first().map_or(1.0, |r| r.ns_per_item(r.stats.median));
    println!("\n{title}");
    for r in rows {
        let (med, lo, hi) = (
            r.ns_per_item(r.stats.median),
            r.ns_per_item(r.stats.p10),
            r.ns_per_item(r.stats.p90),
        );
        let ratio = med / base;
        println!(
            "  {:<34} {:>10.3} ns/element  (p10 {:.3}, p90 {:.3})  ×{:.2}  {}",
            r.label, med, lo, hi, ratio, r.note
        );
        table.push(BarRow {
            variant: r.label.clone(),
            elements: r.items,
            median_s: sig7(r.stats.median),
            p10_s: sig7(r.stats.p10),
            p90_s: sig7(r.stats.p90),
            samples: r.stats.samples,
            ns_per_element: round_to(med, 4),
            p10_ns_per_element: round_to(lo, 4),
            p90_ns_per_element: round_to(hi, 4),
            ratio_to_first: round_to(ratio, 2),
            note: r.note.clone(),
        });
    }
    let chart = bar_chart(name, title, &machine.summary(), &table);
    write_rows(name, &table, chart, title, notes)
}

/// The chart of a bar figure: a bar per variant, ns per element with whiskers p10–p90;
/// `machine` is the machine's summary.
pub fn bar_chart(name: &str, title: &str, machine: &str, table: &[BarRow]) -> String {
    let unit = BAR_UNITS
        .iter()
        .find(|(figure, _)| *figure == name)
        .map_or("ns per element", |(_, unit)| unit);
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: machine.to_owned(),
        y_label: unit.to_owned(),
        log_y: false,
        bars: table
            .iter()
            .map(|r| {
                (
                    r.variant.clone(),
                    r.ns_per_element,
                    Some((r.p10_ns_per_element, r.p90_ns_per_element)),
                )
            })
            .collect(),
    };
    // A bar chart with bars three orders of magnitude apart is unreadable on a linear axis.
    let (min, max) = chart
        .bars
        .iter()
        .fold((f64::MAX, 0f64), |(a, b), bar| (a.min(bar.1), b.max(bar.1)));
    chart.log_y = min > 0.0 && max / min > 50.0;
    chart.to_svg()
}

/// Writes `figures/<name>.{csv,svg,json}`: typed rows, their chart and the sidecar.
pub fn write_rows<T: Serialize>(
    name: &str,
    rows: &[T],
    svg: String,
    description: &str,
    notes: Vec<String>,
) -> std::io::Result<()> {
    Figure::new(sidecar(name, description, notes))
        .rows(rows)
        .and_then(|figure| figure.chart(svg).write())
        .map_err(std::io::Error::other)?;
    Ok(())
}

/// The sidecar of every figure here: its notes and how the clock was read.
fn sidecar(name: &str, description: &str, notes: Vec<String>) -> Sidecar {
    let mut sidecar = Sidecar::new(name, description);
    sidecar.notes = notes;
    let clock = crate::clock::description().to_owned();
    if !sidecar.notes.contains(&clock) {
        sidecar.notes.push(clock);
    }
    sidecar
}
