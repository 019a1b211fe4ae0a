//! Writing one figure: CSV + SVG + sidecar, all from the same rows.

use bench_harness::{BarChart, Csv, MachineInfo, Sidecar, Stats, figures_dir};

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

/// Writes `figures/<name>.{csv,svg,json}` for a bar comparison in nanoseconds per element; the
/// `ratio` column is each row's median over the first row's, so the book can quote it as is.
pub fn bar_figure(
    name: &str,
    title: &str,
    y_label: &str,
    rows: &[Row],
    notes: Vec<String>,
) -> std::io::Result<()> {
    let machine = MachineInfo::detect();
    let mut csv = Csv::new(&[
        "variant",
        "elements",
        "median_s",
        "p10_s",
        "p90_s",
        "samples",
        "ns_per_element",
        "p10_ns_per_element",
        "p90_ns_per_element",
        "ratio_to_first",
        "note",
    ]);
    let base = rows.first().map_or(1.0, |r| r.ns_per_item(r.stats.median));
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: machine.summary(),
        y_label: y_label.to_owned(),
        log_y: false,
        bars: Vec::new(),
    };
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
        csv.row(&[
            r.label.clone(),
            r.items.to_string(),
            format!("{:.6e}", r.stats.median),
            format!("{:.6e}", r.stats.p10),
            format!("{:.6e}", r.stats.p90),
            r.stats.samples.to_string(),
            format!("{med:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{ratio:.2}"),
            r.note.clone(),
        ]);
        chart.bars.push((r.label.clone(), med, Some((lo, hi))));
    }
    // A bar chart with bars three orders of magnitude apart is unreadable on a linear axis.
    let (min, max) = chart
        .bars
        .iter()
        .fold((f64::MAX, 0f64), |(a, b), bar| (a.min(bar.1), b.max(bar.1)));
    chart.log_y = min > 0.0 && max / min > 50.0;
    write_all(name, &csv, &chart.to_svg(), title, notes)
}

pub fn write_all(
    name: &str,
    csv: &Csv,
    svg: &str,
    description: &str,
    notes: Vec<String>,
) -> std::io::Result<()> {
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(format!("{name}.svg")), svg)?;
    let mut sidecar = Sidecar::new(name, description);
    sidecar.notes = notes;
    let clock = crate::clock::description().to_owned();
    if !sidecar.notes.contains(&clock) {
        sidecar.notes.push(clock);
    }
    sidecar.write(&dir.join(format!("{name}.json")))
}
