//! Measures every hot-loop rule (before/after, p50/p99/max per iteration) and writes
//! `figures/realtime_hot_loops[_<machine>].{csv,svg,json}` and
//! `figures/realtime_sleep[_<machine>].{csv,svg,json}` and
//! `figures/realtime_priority[_<machine>].{csv,svg,json}` (wake-up lateness under load with
//! `SCHED_OTHER` and `SCHED_FIFO`, pinned and not; a refused `SCHED_FIFO` is a "refused" row),
//! `figures/realtime_loop_checks[_<machine>]` (the timer's floor and the rules whose "after"
//! must be read with care: logging with its dropped records, system calls to p99.9, validation
//! with the validation), `figures/realtime_method[_<machine>]` (stage 2 against stage 3 of the
//! method, per chunk, with the timer's floor), and the real-time basics of [`rt_basics`].
//!
//! ```console
//! cargo run --release -p realtime --bin realtime_figures -- --quick --allow-dirty --allow-busy
//! ```

use anyhow::Context;
use bench_harness::{BarChart, Figure, FigureArgs, Sidecar};
use realtime::rules::priority::{self, Outcome, Setup};
use realtime::rules::{Measured, Rule, Sizes, measure_all};
use serde::Serialize;

mod rt_basics;

/// The parts that are not hot-loop rules.
const OTHER_PARTS: [&str; 6] = [
    "method",
    "priority",
    "checks",
    "inversion",
    "page_faults",
    "deadlines",
];

fn main() -> anyhow::Result<()> {
    let args = &FigureArgs::parse_with_about(
        "Hot-loop rules as before/after pairs: p50, p99 and max latency per iteration",
    );
    let parts: Vec<&str> = Rule::ALL
        .map(Rule::name)
        .into_iter()
        .chain(OTHER_PARTS)
        .collect();
    args.start(&parts)?;
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

    let loop_rules: Vec<Rule> = Rule::ALL
        .into_iter()
        .filter(|&r| r != Rule::Sleeping && args.wants(r.name()))
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
        let rows = measure_all(&[Rule::Sleeping], sizes)?;
        write(
            &format!("realtime_sleep{suffix}"),
            "How late a 1 ms sleep wakes up: thread::sleep vs spin_sleep (p50, p99, max)",
            &machine,
            &rows,
            &sizes,
        )?;
    }
    if args.wants("method") {
        let mut rows = measure_all(&[Rule::Floor], sizes)?;
        let chunk = realtime::method::timing::CHUNK;
        for (variant, summary) in
            realtime::method::timing::time_stages(sizes.warmup, sizes.iterations)
        {
            rows.push(Measured {
                rule: "method",
                variant,
                summary,
                dropped: None,
            });
        }
        write(
            &format!("realtime_method{suffix}"),
            &format!("The method's stage 2 and stage 3: latency of one {chunk}-sample chunk"),
            &machine,
            &rows,
            &sizes,
        )?;
    }
    if args.wants("priority") {
        let name = format!("realtime_priority{suffix}");
        write_priority(&name, &machine, &sizes)?;
    }
    if args.wants("checks") {
        let rows = measure_all(
            &[Rule::Floor, Rule::Logging, Rule::Syscalls, Rule::Validation],
            sizes,
        )?;
        write(
            &format!("realtime_loop_checks{suffix}"),
            "The timer's floor, and rules whose 'after' needs care: latency of one iteration",
            &machine,
            &rows,
            &sizes,
        )?;
    }
    if args.wants("inversion") {
        rt_basics::write_inversion(
            &format!("realtime_priority_inversion{suffix}"),
            &machine,
            &sizes,
        )?;
    }
    if args.wants("page_faults") {
        rt_basics::write_page_faults(&format!("realtime_page_faults{suffix}"), &machine, &sizes)?;
    }
    if args.wants("deadlines") {
        rt_basics::write_deadlines(&format!("realtime_deadlines{suffix}"), &machine, &sizes)?;
    }
    Ok(())
}

/// Wake-up lateness of a 1 ms periodic sleep with a spinning thread on every core, per policy.
fn write_priority(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "How late a 1 ms sleep wakes up while every core spins: SCHED_OTHER vs SCHED_FIFO";
    let mut rows: Vec<PriorityRow> = Vec::new();
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: format!(
            "p99 lateness (whisker: p50 to max); refused setups are left out; {machine}"
        ),
        y_label: "p99 wake-up lateness (ns)".into(),
        log_y: true,
        bars: Vec::new(),
    };
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
            status: outcome.status(),
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
                chart.bars.push((
                    label.clone(),
                    s.p99_ns as f64,
                    Some((s.p50_ns as f64, s.max_ns as f64)),
                ));
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
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

/// One setup of `realtime_priority*.csv`; a refused setup has only its note.
#[derive(Serialize)]
struct PriorityRow {
    setup: String,
    policy: String,
    core: String,
    competitors: usize,
    status: &'static str,
    sleeps: Option<u64>,
    p50_ns: Option<u64>,
    p99_ns: Option<u64>,
    max_ns: Option<u64>,
    mean_ns: Option<f64>,
    note: String,
}

/// One variant of a rule in `realtime_hot_loops*.csv` and the other rule tables.
#[derive(Serialize)]
struct RuleRow {
    rule: &'static str,
    variant: &'static str,
    iterations: u64,
    p50_ns: u64,
    p99_ns: u64,
    p999_ns: u64,
    max_ns: u64,
    mean_ns: f64,
    dropped: Option<u64>,
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

fn write(
    name: &str,
    title: &str,
    machine: &str,
    rows: &[Measured],
    sizes: &Sizes,
) -> anyhow::Result<()> {
    let mut table: Vec<RuleRow> = Vec::new();
    // Medians within FLOOR_FACTOR empty steps measure the clock as much as the code.
    let floor = rows.iter().find(|r| r.rule == "floor").map(|r| r.summary);
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
        let near_floor = match (&floor, r.rule) {
            (Some(_), "floor" | "sleeping") | (None, _) => None,
            (Some(f), _) => Some(r.near_floor(f)),
        };
        table.push(RuleRow {
            rule: r.rule,
            variant: r.variant,
            iterations: s.iterations,
            p50_ns: s.p50_ns,
            p99_ns: s.p99_ns,
            p999_ns: s.p999_ns,
            max_ns: s.max_ns,
            mean_ns: one_decimal(s.mean_ns),
            dropped: r.dropped,
            near_floor,
        });
        chart.bars.push((
            format!("{}: {}", r.rule, r.variant),
            s.p99_ns as f64,
            Some((s.p50_ns as f64, s.max_ns as f64)),
        ));
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
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}
