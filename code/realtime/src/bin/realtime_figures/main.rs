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

use bench_harness::FigureArgs;
use realtime::rules::{Measured, Rule, Sizes, measure_all};

use rule_figures::{write, write_priority};

mod redraw;
mod rt_basics;
mod rule_figures;

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
    // `--redraw` measures nothing: it draws the charts again from the CSVs.
    if args.redraw {
        redraw::run(args, &parts)?;
        return Ok(());
    }
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
