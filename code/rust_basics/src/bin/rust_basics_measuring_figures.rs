//! `cargo run --release -p rust_basics --bin rust_basics_measuring_figures`: the measurements
//! behind module 0's traits and benchmarking pages. Writes, under the figures folder:
//!
//! - `rust_basics_dispatch.{csv,svg,json}`: one activation applied through a generic, a
//!   `Box<dyn>` called once per slice, a `&dyn` called per element, and an enum matched per
//!   element, in ns per element;
//! - `rust_basics_dispatch_split_<machine>.{csv,json}`: the per-element `&dyn` cost taken apart:
//!   the inlined loop, the same loop kept scalar, and a direct call per element;
//! - `rust_basics_timer.{csv,json}`: the smallest step `Instant` shows and what a reading costs;
//! - `rust_basics_repeats.{csv,svg,json}`: two pairs of versions compared in ten independent
//!   runs, and what [`decide`] concludes;
//! - `rust_basics_clock.{csv,svg,json}`: a fixed chain of multiply-adds timed right after the
//!   CPU has been idle, to see whether the clock speeds up.

use std::error::Error;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bench_harness::digits::round_to;
use bench_harness::{
    BarChart, Drawn, Figure, FigureArgs, Found, LineChart, MachineInfo, Series, Sidecar, Stats,
    black_box, rows_to_csv,
};
use rust_basics::benchmarking::{compare, compare_all, decide, dependent_chain, probe_timer};
use rust_basics::iterators::{dot_indexed, dot_iter, dot_lanes};
use rust_basics::traits::{
    Activation, ActivationKind, LeakyRelu, activate, activate_all, activate_each_call,
    activate_each_dyn, activate_each_enum, activate_strided,
};
use serde::{Deserialize, Serialize};

const PARTS: [&str; 5] = ["dispatch", "dispatch_split", "timer", "repeats", "clock"];

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about(
        "Measures static vs dynamic dispatch, the timer, repeated comparisons and the CPU clock",
    );
    bench_harness::exit_code(run(&args))
}

fn run(args: &FigureArgs) -> Result<(), Box<dyn Error>> {
    if args.redraw {
        args.check_parts(&PARTS)?;
        args.redraw("rust_basics_measuring_figures", &SOURCES, |found| {
            draw(args, found)
        })?;
        return Ok(());
    }
    args.start(&PARTS)?;
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build measures unoptimised code; use --release for figures");
    }
    let machine = MachineInfo::detect();
    println!("machine: {}", machine.summary());
    if args.wants("dispatch") {
        dispatch(args, &machine)?;
    }
    if args.wants("dispatch_split") {
        dispatch_split(args)?;
    }
    if args.wants("timer") {
        timer(args)?;
    }
    if args.wants("repeats") {
        repeats(args, &machine)?;
    }
    if args.wants("clock") {
        clock(args, &machine)?;
    }
    Ok(())
}

/// Elements processed per timed sample (a short slice is processed repeatedly).
const ELEMENTS_PER_SAMPLE: usize = 1 << 20;

fn dispatch(args: &FigureArgs, machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    const N: usize = 4096;
    let samples = if args.quick { 5 } else { 31 };
    let reps = ELEMENTS_PER_SAMPLE / N;
    // Slope 1 leaves the values unchanged, so repeated passes see the same numbers (and never
    // drift into slow subnormals); `black_box` hides the 1 from the optimiser.
    let slope = black_box(1.0f32);
    let leaky = LeakyRelu { slope };
    let boxed: Vec<Box<dyn Activation>> = vec![Box::new(LeakyRelu { slope })];
    let kind = ActivationKind::LeakyRelu { slope };
    let mut values: Vec<f32> = (0..N).map(|i| ((i * 37) % 101) as f32 - 50.0).collect();
    let mut time = |f: &mut dyn FnMut(&mut [f32])| {
        bench_harness::measure(3, samples, || {
            for _ in 0..reps {
                f(black_box(&mut values));
            }
        })
    };
    let rows: [(&str, Stats); 4] = [
        (
            "generic (static)",
            time(&mut |v| activate(black_box(&leaky), v)),
        ),
        (
            "Box<dyn>, one call per slice",
            time(&mut |v| activate_all(black_box(&boxed), v)),
        ),
        (
            "&dyn, one call per element",
            time(&mut |v| activate_each_dyn(black_box(&leaky as &dyn Activation), v)),
        ),
        (
            "enum, match per element",
            time(&mut |v| activate_each_enum(black_box(kind), v)),
        ),
    ];
    let per_element = (reps * N) as f64;
    let ns = |s: f64| s * 1e9 / per_element;
    let table: Vec<DispatchRow> = rows
        .iter()
        .map(|(name, st)| DispatchRow::new(name, N, st, ns))
        .collect();
    let mut sidecar = Sidecar::new(
        "rust_basics_dispatch",
        "leaky ReLU (slope 1, hidden from the optimiser) over 4096 f32 through four kinds of dispatch, ns per element",
    );
    sidecar.notes.push(format!(
        "each sample processes {ELEMENTS_PER_SAMPLE} elements (the slice {reps} times)"
    ));
    println!("{}", rows_to_csv(&table)?);
    Figure::new(sidecar)
        .rows(&table)?
        .chart(dispatch_chart(&machine.cpu_model, &table))
        .write()?;
    Ok(())
}

/// A bar per kind of dispatch, ns per element with whiskers p10–p90.
fn dispatch_chart(cpu: &str, rows: &[DispatchRow]) -> String {
    let (n, samples) = rows.first().map_or((0, 0), |r| (r.n, r.samples));
    BarChart {
        title: format!("Leaky ReLU over {n} f32: static vs dynamic dispatch"),
        subtitle: format!("{cpu} — median of {samples}, whiskers p10–p90"),
        y_label: "ns per element".into(),
        log_y: false,
        bars: rows
            .iter()
            .map(|r| {
                (
                    r.variant.clone(),
                    r.median_ns_per_element,
                    Some((r.p10_ns_per_element, r.p90_ns_per_element)),
                )
            })
            .collect(),
    }
    .to_svg()
}

fn timer(args: &FigureArgs) -> Result<(), Box<dyn Error>> {
    let (rounds, calls) = if args.quick {
        (2, 10_000)
    } else {
        (5, 1_000_000)
    };
    let rows: Vec<TimerRow> = (0..rounds)
        .map(|round| {
            let probe = probe_timer(calls);
            TimerRow {
                round,
                calls,
                smallest_step_ns: round_to(probe.smallest_step.as_secs_f64() * 1e9, 1),
                cost_per_call_ns: round_to(probe.cost_per_call.as_secs_f64() * 1e9, 2),
            }
        })
        .collect();
    let mut sidecar = Sidecar::new(
        "rust_basics_timer",
        "back-to-back Instant::now() readings: the smallest non-zero step and the mean cost of one reading",
    );
    sidecar.notes.push(format!(
        "clock source: {}",
        read_sys("/sys/devices/system/clocksource/clocksource0/current_clocksource")
    ));
    // A table with no chart: the sidecar names its one data file.
    sidecar.files = vec!["rust_basics_timer.csv".into()];
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar).rows(&rows)?.write()?;
    Ok(())
}

/// The length of the vectors in the repeats figure (its title says it; its table does not).
const REPEATS_N: usize = 4096;

fn repeats(args: &FigureArgs, machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    const N: usize = REPEATS_N;
    let (runs, samples) = if args.quick { (3, 5) } else { (10, 21) };
    let reps = (1 << 18) / N;
    let per_element = (reps * N) as f64;
    let ns = |s: f64| s * 1e9 / per_element;
    type Dot = fn(&[f32], &[f32]) -> f32;
    let pairs: [(&str, Dot, &str, Dot); 2] = [
        ("index loop", dot_indexed, "iterator", dot_iter),
        ("iterator", dot_iter, "8 partial sums", dot_lanes),
    ];
    let mut rows: Vec<RepeatRow> = Vec::new();
    let mut verdicts: Vec<VerdictRow> = Vec::new();
    for (name_a, a, name_b, b) in pairs {
        let mut results = Vec::new();
        for run in 0..runs {
            // Fresh vectors each run: a new allocation, as a new process would get.
            let x: Vec<f32> = (0..N).map(|i| (i % 100) as f32 * 0.01).collect();
            let y: Vec<f32> = (0..N).map(|i| 1.0 - (i % 10) as f32 * 0.1).collect();
            let (sa, sb) = compare(
                3,
                samples,
                || {
                    for _ in 0..reps {
                        black_box(a(black_box(&x), black_box(&y)));
                    }
                },
                || {
                    for _ in 0..reps {
                        black_box(b(black_box(&x), black_box(&y)));
                    }
                },
            );
            rows.push(RepeatRow {
                a: name_a.into(),
                b: name_b.into(),
                run,
                a_median_ns: round_to(ns(sa.median), 4),
                a_p10_ns: round_to(ns(sa.p10), 4),
                a_p90_ns: round_to(ns(sa.p90), 4),
                b_median_ns: round_to(ns(sb.median), 4),
                b_p10_ns: round_to(ns(sb.p10), 4),
                b_p90_ns: round_to(ns(sb.p90), 4),
                samples,
            });
            results.push((sa, sb));
        }
        let verdict = decide(&results);
        let (word, ratio) = match verdict {
            rust_basics::benchmarking::Verdict::BFaster { ratio } => ("b faster", ratio),
            rust_basics::benchmarking::Verdict::BSlower { ratio } => ("b slower", ratio),
            rust_basics::benchmarking::Verdict::NoClearDifference { ratio } => {
                ("no clear difference", ratio)
            }
        };
        verdicts.push(VerdictRow {
            a: name_a,
            b: name_b,
            runs,
            verdict: word,
            median_ratio_b_over_a: round_to(ratio, 3),
        });
    }
    let verdicts_csv = rows_to_csv(&verdicts)?;
    let mut sidecar = Sidecar::new(
        "rust_basics_repeats",
        "index loop vs iterator and iterator vs 8 partial sums, each pair measured alternately in independent runs; verdicts by benchmarking::decide",
    );
    sidecar.notes.push(format!(
        "each sample computes {reps} dot products of {N} elements"
    ));
    println!("{}\n{verdicts_csv}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(repeats_chart(&machine.cpu_model, &rows))
        .extra("rust_basics_repeats_verdicts.csv", verdicts_csv)
        .write()?;
    Ok(())
}

/// Two lines per pair (its `a` and its `b`), ns per element against the run.
fn repeats_chart(cpu: &str, rows: &[RepeatRow]) -> String {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !pairs.contains(&(&r.a, &r.b)) {
            pairs.push((&r.a, &r.b));
        }
    }
    let mut series = Vec::new();
    let mut runs = 0;
    for (a, b) in pairs {
        let mut line_a = Series::new(&format!("{a} (vs {b})"));
        let mut line_b = Series::new(&format!("{b} (vs {a})"));
        for r in rows.iter().filter(|r| r.a == a && r.b == b) {
            let run = r.run as f64;
            line_a.point_with_spread(run, r.a_median_ns, r.a_p10_ns, r.a_p90_ns);
            line_b.point_with_spread(run, r.b_median_ns, r.b_p10_ns, r.b_p90_ns);
            runs = runs.max(r.run + 1);
        }
        series.push(line_a);
        series.push(line_b);
    }
    let samples = rows.first().map_or(0, |r| r.samples);
    LineChart {
        title: format!(
            "Dot product of {REPEATS_N} f32: two pairs of versions, {runs} independent runs"
        ),
        subtitle: format!("{cpu} — median of {samples} per run, whiskers p10–p90"),
        x_label: "run".into(),
        y_label: "ns per element".into(),
        log_x: false,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

/// The clock figure's idle pause before the timed chain, and how long the chain is timed.
fn clock_spans(quick: bool) -> (Duration, Duration) {
    if quick {
        (Duration::from_millis(200), Duration::from_millis(40))
    } else {
        (Duration::from_secs(2), Duration::from_millis(400))
    }
}

/// The width of the clock figure's time bins.
const BIN_MS: f64 = 4.0;

fn clock(args: &FigureArgs, machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    let (idle, span) = clock_spans(args.quick);
    const STEPS: u64 = 20_000;
    let governor = read_sys("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    std::thread::sleep(idle);
    let start = Instant::now();
    let mut chunks: Vec<(f64, f64)> = Vec::new(); // (ms since start, ns per step)
    let mut seed = 1;
    while start.elapsed() < span {
        let t0 = Instant::now();
        seed = dependent_chain(seed, STEPS);
        let took = t0.elapsed().as_secs_f64();
        chunks.push(((t0 - start).as_secs_f64() * 1e3, took * 1e9 / STEPS as f64));
    }
    black_box(seed);
    let mut rows: Vec<ClockRow> = Vec::new();
    let bins = (span.as_secs_f64() * 1e3 / BIN_MS).ceil() as usize;
    for bin in 0..bins {
        let lo = bin as f64 * BIN_MS;
        let in_bin: Vec<f64> = chunks
            .iter()
            .filter(|(t, _)| *t >= lo && *t < lo + BIN_MS)
            .map(|c| c.1 * 1e-9)
            .collect();
        let Some(st) = Stats::from_seconds(&in_bin) else {
            continue;
        };
        rows.push(ClockRow {
            ms_since_idle: lo.round() as u64,
            median_ns_per_step: round_to(st.median * 1e9, 4),
            min_ns_per_step: round_to(st.min * 1e9, 4),
            chunks: st.samples,
        });
    }
    let mut sidecar = Sidecar::new(
        "rust_basics_clock",
        "ns per multiply-add step in chunks of 20000 steps, from the end of an idle sleep; a falling curve means the clock speeds up",
    );
    sidecar.notes.push(format!("cpufreq governor: {governor}"));
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(clock_chart(&machine.cpu_model, idle, &rows))
        .write()?;
    Ok(())
}

/// The median ns per step of each bin against the time since the idle pause ended.
fn clock_chart(cpu: &str, idle: Duration, rows: &[ClockRow]) -> String {
    let mut line = Series::new("multiply-add chain");
    for r in rows {
        line.point(r.ms_since_idle as f64, r.median_ns_per_step);
    }
    LineChart {
        title: "A fixed chain of multiply-adds, timed from the end of an idle pause".into(),
        subtitle: format!(
            "{cpu} — {} ms idle first; median per {BIN_MS} ms bin",
            idle.as_millis()
        ),
        x_label: "ms since the pause".into(),
        y_label: "ns per step".into(),
        log_x: false,
        log_y: false,
        series: vec![line],
        markers: Vec::new(),
    }
    .to_svg()
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/rust_basics/src/bin/rust_basics_measuring_figures.rs"];

/// `--redraw`: one figure's chart again from its table and sidecar, measuring nothing.
fn draw(args: &FigureArgs, found: &Found) -> Result<Drawn, bench_harness::FigureError> {
    let part = if found.name.starts_with("rust_basics_dispatch_split") {
        "dispatch_split"
    } else {
        found
            .name
            .strip_prefix("rust_basics_")
            .unwrap_or(&found.name)
    };
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    let cpu = &found.sidecar.cpu;
    let svg = match part {
        "dispatch" => dispatch_chart(cpu, &found.rows()?),
        "repeats" => repeats_chart(cpu, &found.rows()?),
        "clock" => {
            // The pause is the one `--quick` picked when the figure was measured.
            let quick = found.measured_with("--quick");
            clock_chart(cpu, clock_spans(quick).0, &found.rows()?)
        }
        _ => return Ok(Drawn::Kept("a table without a chart".into())),
    };
    Ok(Drawn::chart(found, svg))
}

/// One row of `rust_basics_dispatch.csv` and `rust_basics_dispatch_split_<machine>.csv`.
#[derive(Serialize, Deserialize)]
struct DispatchRow {
    variant: String,
    n: usize,
    median_ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    samples: usize,
}

impl DispatchRow {
    fn new(variant: &str, n: usize, st: &Stats, ns: impl Fn(f64) -> f64) -> Self {
        Self {
            variant: variant.into(),
            n,
            median_ns_per_element: round_to(ns(st.median), 4),
            p10_ns_per_element: round_to(ns(st.p10), 4),
            p90_ns_per_element: round_to(ns(st.p90), 4),
            samples: st.samples,
        }
    }
}

/// One row of `rust_basics_timer.csv`.
#[derive(Serialize)]
struct TimerRow {
    round: u32,
    calls: u32,
    smallest_step_ns: f64,
    cost_per_call_ns: f64,
}

/// One run of one pair in `rust_basics_repeats.csv`.
#[derive(Serialize, Deserialize)]
struct RepeatRow {
    a: String,
    b: String,
    run: usize,
    a_median_ns: f64,
    a_p10_ns: f64,
    a_p90_ns: f64,
    b_median_ns: f64,
    b_p10_ns: f64,
    b_p90_ns: f64,
    samples: usize,
}

/// One pair's verdict in `rust_basics_repeats_verdicts.csv`.
#[derive(Serialize)]
struct VerdictRow {
    a: &'static str,
    b: &'static str,
    runs: usize,
    verdict: &'static str,
    median_ratio_b_over_a: f64,
}

/// One time bin of `rust_basics_clock.csv`.
#[derive(Serialize, Deserialize)]
struct ClockRow {
    ms_since_idle: u64,
    median_ns_per_step: f64,
    min_ns_per_step: f64,
    chunks: usize,
}

/// A one-line kernel setting from /sys, or why it is unknown (VMs often hide cpufreq).
fn read_sys(path: &str) -> String {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|_| format!("unknown ({path} not readable)"))
}

/// A named way to apply the activation to a slice.
type Variant<'a> = (&'static str, &'a dyn Fn(&mut [f32]));

/// The per-element `&dyn` loop's extra cost taken apart: the inlined, vectorised loop; the same
/// inlined loop kept scalar (a run-time stride of 1); a direct call per element (static dispatch,
/// not inlined); and the indirect call per element.
fn dispatch_split(args: &FigureArgs) -> Result<(), Box<dyn Error>> {
    const N: usize = 4096;
    let samples = if args.quick { 5 } else { 31 };
    let reps = ELEMENTS_PER_SAMPLE / N;
    let slope = black_box(1.0f32);
    let leaky = LeakyRelu { slope };
    let stride = black_box(1usize);
    let mut values: Vec<f32> = (0..N).map(|i| ((i * 37) % 101) as f32 - 50.0).collect();
    let variants: [Variant<'_>; 4] = [
        ("generic, inlined (vectorised)", &|v| {
            activate(black_box(&leaky), v)
        }),
        ("generic, inlined, scalar (run-time stride 1)", &|v| {
            activate_strided(black_box(&leaky), v, stride)
        }),
        ("generic, direct call per element (not inlined)", &|v| {
            activate_each_call(black_box(&leaky), v)
        }),
        ("&dyn, indirect call per element", &|v| {
            activate_each_dyn(black_box(&leaky as &dyn Activation), v)
        }),
    ];
    let mut rows: Vec<DispatchRow> = Vec::new();
    let ns = |s: f64| s * 1e9 / (reps * N) as f64;
    // Alternate the variants sample by sample, so a change in the machine's state lands on all.
    let stats = compare_all(3, samples, variants.len(), |i| {
        for _ in 0..reps {
            (variants[i].1)(black_box(&mut values));
        }
    });
    for ((name, _), st) in variants.iter().zip(&stats) {
        rows.push(DispatchRow::new(name, N, st, ns));
    }
    let label = args.machine.as_deref().unwrap_or("local");
    let name = format!("rust_basics_dispatch_split_{label}");
    let mut sidecar = Sidecar::new(
        &name,
        "leaky ReLU (slope 1, hidden from the optimiser) over 4096 f32: inlined and vectorised, inlined and scalar, a direct call per element, an indirect call per element; ns per element",
    );
    sidecar.notes.push(format!(
        "each sample applies the activation {reps} times to 4096 values; the four variants alternate sample by sample; 3 warm-up rounds"
    ));
    // A table with no chart: the sidecar names its one data file.
    sidecar.files = vec![format!("{name}.csv")];
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar).rows(&rows)?.write()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_charts() {
        let redrawn =
            bench_harness::check_committed("rust_basics_measuring_figures", &SOURCES, draw)
                .unwrap();
        assert_eq!(redrawn.figures.len(), 6, "{:?}", redrawn.figures);
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 3);
        // The timer table and the two dispatch-split tables have no chart.
        assert_eq!(report.kept.len(), 3, "{:?}", report.kept);
    }
}
