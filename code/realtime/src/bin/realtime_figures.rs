//! Measures every hot-loop rule (before/after, p50/p99/max per iteration) and writes
//! `figures/realtime_hot_loops[_<machine>].{csv,svg,json}` and
//! `figures/realtime_sleep[_<machine>].{csv,svg,json}`.
//!
//! ```console
//! cargo run --release -p realtime --bin realtime_figures -- --quick --allow-dirty --allow-busy
//! ```

use anyhow::Context;
use bench_harness::{BarChart, Csv, FigureArgs, Sidecar, figures_dir};
use realtime::rules::{Measured, RULES, Sizes, measure_all};

fn main() -> anyhow::Result<()> {
    let args = &FigureArgs::parse_with_about(
        "Hot-loop rules as before/after pairs: p50, p99 and max latency per iteration",
    );
    args.start(&RULES)?;
    let sizes = if args.quick {
        Sizes::quick()
    } else {
        Sizes::full()
    };
    let suffix = args
        .machine
        .as_deref()
        .map_or_else(String::new, |m| format!("_{m}"));
    let machine = bench_harness::MachineInfo::detect().summary();

    let loop_rules: Vec<&str> = RULES
        .iter()
        .copied()
        .filter(|r| *r != "sleeping" && args.wants(r))
        .collect();
    if !loop_rules.is_empty() {
        let rows = measure_all(&loop_rules, sizes)?;
        write(
            &format!("realtime_hot_loops{suffix}"),
            "Hot-loop rules, before and after: latency of one iteration (p50, p99, max)",
            &machine,
            &rows,
            &sizes,
        )?;
    }
    if args.wants("sleeping") {
        let rows = measure_all(&["sleeping"], sizes)?;
        write(
            &format!("realtime_sleep{suffix}"),
            "How late a 1 ms sleep wakes up: thread::sleep vs spin_sleep (p50, p99, max)",
            &machine,
            &rows,
            &sizes,
        )?;
    }
    Ok(())
}

fn write(
    name: &str,
    title: &str,
    machine: &str,
    rows: &[Measured],
    sizes: &Sizes,
) -> anyhow::Result<()> {
    let dir = figures_dir();
    let mut csv = Csv::new(&[
        "rule",
        "variant",
        "iterations",
        "p50_ns",
        "p99_ns",
        "max_ns",
        "mean_ns",
    ]);
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: format!("p99 per iteration (whisker: p50 to max); {machine}"),
        y_label: "p99 latency (ns)".into(),
        log_y: true,
        bars: Vec::new(),
    };
    for r in rows {
        let s = r.summary;
        println!(
            "{:<18} {:<28} p50 {:>9} ns  p99 {:>9} ns  max {:>10} ns",
            r.rule, r.variant, s.p50_ns, s.p99_ns, s.max_ns
        );
        csv.row(&[
            r.rule.to_owned(),
            r.variant.to_owned(),
            s.iterations.to_string(),
            s.p50_ns.to_string(),
            s.p99_ns.to_string(),
            s.max_ns.to_string(),
            format!("{:.1}", s.mean_ns),
        ]);
        chart.bars.push((
            format!("{}: {}", r.rule, r.variant),
            s.p99_ns as f64,
            Some((s.p50_ns as f64, s.max_ns as f64)),
        ));
    }
    csv.write(&dir.join(format!("{name}.csv")))
        .with_context(|| format!("writing {name}.csv into {}", dir.display()))?;
    chart.write(&dir.join(format!("{name}.svg")))?;
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "{} timed iterations after {} warm-up ones per variant; hand-off: {} messages, one every 2 us; sleeping: {} sleeps of {:?}",
        sizes.iterations, sizes.warmup, sizes.messages, sizes.sleeps, sizes.sleep_period
    ));
    sidecar.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
