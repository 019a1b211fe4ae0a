//! The hot-loop rules' figures (before/after pairs of each rule, the sleep, the method's stages,
//! the loop checks) and the scheduling-priority comparison.

use anyhow::Context;
use bench_harness::{BarChart, Figure, Sidecar};
use realtime::rules::Measured;
use realtime::rules::Sizes;
use realtime::rules::priority::{self, Outcome, Setup};
use serde::{Deserialize, Serialize};

/// Wake-up lateness of a 1 ms periodic sleep with a spinning thread on every core, per policy.
pub fn write_priority(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "How late a 1 ms sleep wakes up while every core spins: SCHED_OTHER vs SCHED_FIFO";
    let mut rows: Vec<PriorityRow> = Vec::new();
    for setup in priority::comparison() {
        let label = setup.label();
        let (policy, core) = describe(&setup);
        let outcome = priority::measure_or_refused(setup, sizes.sleep_period, sizes.sleeps)
            .with_context(|| format!("measuring {label}"))?;
        let mut row = PriorityRow {
            setup: label.clone(),
            policy,
            core,
            competitors: setup.competitors,
            status: outcome.status().to_owned(),
            sleeps: None,
            p50_ns: None,
            p99_ns: None,
            max_ns: None,
            mean_ns: None,
            note: String::new(),
        };
        match &outcome {
            Outcome::Measured(s) => {
                println!(
                    "{label:<40} p50 {:>9} ns  p99 {:>9} ns  max {:>10} ns",
                    s.p50_ns, s.p99_ns, s.max_ns
                );
                row.sleeps = Some(s.iterations);
                row.p50_ns = Some(s.p50_ns);
                row.p99_ns = Some(s.p99_ns);
                row.max_ns = Some(s.max_ns);
                row.mean_ns = Some(one_decimal(s.mean_ns));
            }
            Outcome::Refused(why) => {
                println!("{label:<40} refused: {why}");
                row.note = why.clone();
            }
        }
        rows.push(row);
    }
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "{} sleeps of {:?} per setup, measured on a thread that only sleeps; competitors are normal threads that spin until the setup's sleeps are done",
        sizes.sleeps, sizes.sleep_period
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(priority_chart(title, machine, &rows))
        .write()?;
    Ok(())
}

/// The p99 wake-up lateness of every setup that was measured (whisker: p50 to max).
pub fn priority_chart(title: &str, machine: &str, rows: &[PriorityRow]) -> String {
    let bars = rows
        .iter()
        .filter_map(|r| {
            let (p50, p99, max) = (r.p50_ns?, r.p99_ns?, r.max_ns?);
            Some((r.setup.clone(), p99 as f64, Some((p50 as f64, max as f64))))
        })
        .collect();
    BarChart {
        title: title.to_owned(),
        subtitle: format!(
            "p99 lateness (whisker: p50 to max); refused setups are left out; {machine}"
        ),
        y_label: "p99 wake-up lateness (ns)".into(),
        log_y: true,
        bars,
    }
    .to_svg()
}

/// One setup of `realtime_priority*.csv`; a refused setup has only its note.
#[derive(Serialize, Deserialize)]
pub struct PriorityRow {
    setup: String,
    policy: String,
    core: String,
    competitors: usize,
    status: String,
    sleeps: Option<u64>,
    p50_ns: Option<u64>,
    p99_ns: Option<u64>,
    max_ns: Option<u64>,
    mean_ns: Option<f64>,
    note: String,
}

/// One variant of a rule in `realtime_hot_loops*.csv` and the other rule tables.
#[derive(Serialize, Deserialize)]
pub struct RuleRow {
    rule: String,
    variant: String,
    iterations: u64,
    p50_ns: u64,
    p99_ns: u64,
    // Tables written before these three columns existed lack them; the chart does not use them.
    #[serde(default)]
    p999_ns: u64,
    max_ns: u64,
    mean_ns: f64,
    #[serde(default)]
    dropped: Option<u64>,
    #[serde(default)]
    near_floor: Option<bool>,
}

fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn describe(setup: &Setup) -> (String, String) {
    let policy = match setup.policy {
        priority::Policy::Normal => "SCHED_OTHER".to_owned(),
        priority::Policy::Fifo(p) => format!("SCHED_FIFO {p}"),
    };
    let core = setup
        .core
        .map_or_else(|| "any".to_owned(), |c| c.to_string());
    (policy, core)
}

pub fn write(
    name: &str,
    title: &str,
    machine: &str,
    rows: &[Measured],
    sizes: &Sizes,
) -> anyhow::Result<()> {
    let mut table: Vec<RuleRow> = Vec::new();
    // Medians within FLOOR_FACTOR empty steps measure the clock as much as the code.
    let floor = rows.iter().find(|r| r.rule == "floor").map(|r| r.summary);
    for r in rows {
        let s = r.summary;
        println!(
            "{:<18} {:<28} p50 {:>9} ns  p99 {:>9} ns  max {:>10} ns",
            r.rule, r.variant, s.p50_ns, s.p99_ns, s.max_ns
        );
        let near_floor = match (&floor, r.rule) {
            (Some(_), "floor" | "sleeping") | (None, _) => None,
            (Some(f), _) => Some(r.near_floor(f)),
        };
        table.push(RuleRow {
            rule: r.rule.to_owned(),
            variant: r.variant.to_owned(),
            iterations: s.iterations,
            p50_ns: s.p50_ns,
            p99_ns: s.p99_ns,
            p999_ns: s.p999_ns,
            max_ns: s.max_ns,
            mean_ns: one_decimal(s.mean_ns),
            dropped: r.dropped,
            near_floor,
        });
    }
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "{} timed iterations after {} warm-up ones per variant; hand-off: {} messages, one every 2 us; sleeping: {} sleeps of {:?}",
        sizes.iterations, sizes.warmup, sizes.messages, sizes.sleeps, sizes.sleep_period
    ));
    sidecar.notes.push(format!(
        "near_floor: the median is below {} times the median of an empty step (the cost of timing itself, about one clock read, which every row includes); dropped: records the off-thread logger dropped because its ring was full",
        realtime::rules::FLOOR_FACTOR
    ));
    Figure::new(sidecar)
        .rows(&table)?
        .chart(rules_chart(title, machine, &table))
        .write()?;
    Ok(())
}

/// The p99 of one iteration of every rule's variant (whisker: p50 to max).
pub fn rules_chart(title: &str, machine: &str, rows: &[RuleRow]) -> String {
    BarChart {
        title: title.to_owned(),
        subtitle: format!("p99 per iteration (whisker: p50 to max); {machine}"),
        y_label: "p99 latency (ns)".into(),
        log_y: true,
        bars: rows
            .iter()
            .map(|r| {
                (
                    format!("{}: {}", r.rule, r.variant),
                    r.p99_ns as f64,
                    Some((r.p50_ns as f64, r.max_ns as f64)),
                )
            })
            .collect(),
    }
    .to_svg()
}
