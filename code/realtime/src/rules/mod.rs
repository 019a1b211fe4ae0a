//! The hot-loop rules, each as a before/after pair (logging has three variants), and
//! [`measure_all`], which times every variant the same way.

pub mod allocation;
pub mod batching;
pub mod casts;
pub mod copying;
pub mod handoff;
pub mod keys;
pub mod logging;
pub mod priority;
pub mod sleeping;
pub mod syscalls;
pub mod validation;
pub mod vectorisation;

use std::time::Duration;

use crate::latency::{LatencySummary, time_each};
use crate::workload::{FRAME_LEN, sensor_frame};

/// One measured variant of one rule.
#[derive(Clone, Debug)]
pub struct Measured {
    pub rule: &'static str,
    pub variant: &'static str,
    pub summary: LatencySummary,
    /// Records the off-thread logger dropped because its ring was full (logging only).
    pub dropped: Option<u64>,
}

impl Measured {
    fn new(rule: &'static str, variant: &'static str, summary: LatencySummary) -> Self {
        Self {
            rule,
            variant,
            summary,
            dropped: None,
        }
    }

    /// Is this variant's median within `FLOOR_FACTOR` times the median of an empty step? Then
    /// the number says more about the clock than about the code.
    pub fn near_floor(&self, floor: &LatencySummary) -> bool {
        self.summary.p50_ns < FLOOR_FACTOR * floor.p50_ns
    }
}

/// A median below this many empty steps is flagged as "at the timer's floor".
pub const FLOOR_FACTOR: u64 = 2;

/// The rules `measure_rule` knows, in the order of the chapter. `floor` times an empty step:
/// the cost of timing itself that every other row includes (`time_each` reads the clock before
/// and after each step; about one clock read falls inside the interval it measures).
pub const RULES: [&str; 12] = [
    "floor",
    "allocation",
    "logging",
    "syscalls",
    "copying",
    "validation",
    "keys",
    "batching",
    "vectorisation",
    "casts",
    "handoff",
    "sleeping",
];

/// Taps of the filter the vectorisation rule runs.
pub const FIR_TAPS: usize = 16;

/// How much to measure.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub warmup: u64,
    pub iterations: u64,
    /// Messages for the hand-off rule.
    pub messages: u64,
    /// Sleeps for the sleeping rule (each about `sleep_period`).
    pub sleeps: u64,
    pub sleep_period: Duration,
    /// Runs of the priority-inversion scene per protocol.
    pub scenes: u64,
    /// Bytes of the buffer the page-fault loop fills.
    pub fault_buffer: usize,
    /// Periods of each paced loop (each `sleep_period` long).
    pub periods: u32,
}

impl Sizes {
    pub fn full() -> Self {
        Self {
            warmup: 2_000,
            iterations: 100_000,
            messages: 100_000,
            sleeps: 2_000,
            sleep_period: Duration::from_millis(1),
            scenes: 20,
            fault_buffer: 64 << 20,
            periods: 2_000,
        }
    }

    pub fn quick() -> Self {
        Self {
            warmup: 100,
            iterations: 2_000,
            messages: 2_000,
            sleeps: 50,
            sleep_period: Duration::from_millis(1),
            scenes: 2,
            fault_buffer: 4 << 20,
            periods: 50,
        }
    }
}

/// Why a rule could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    #[error("unknown rule `{rule}`; the rules are: {}", RULES.join(", "))]
    UnknownRule { rule: String },
    #[error("could not prepare the files the `{rule}` rule writes to")]
    Io {
        rule: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Logging(#[from] logging::LoggingError),
}

fn io_error(rule: &'static str) -> impl Fn(std::io::Error) -> MeasureError {
    move |source| MeasureError::Io { rule, source }
}

/// Times every variant of `rule`.
pub fn measure_rule(rule: &str, sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let frame = sensor_frame(7);
    let (w, n) = (sizes.warmup, sizes.iterations);
    let m = Measured::new;
    Ok(match rule {
        "floor" => vec![m("floor", "empty step", time_each(w, n, |i| i as f64))],
        "allocation" => {
            let before = time_each(w, n, |_| allocation::allocating(&frame) as f64);
            let mut pre = allocation::Preallocated::new(FRAME_LEN);
            let after = time_each(w, n, |_| pre.step(&frame) as f64);
            vec![
                m("allocation", "allocating", before),
                m("allocation", "preallocated", after),
            ]
        }
        "logging" => measure_logging(sizes)?,
        "syscalls" => {
            let err = io_error("syscalls");
            let dir = tempfile::tempdir().map_err(&err)?;
            let path = dir.path().join("config.toml");
            std::fs::write(&path, "gain = 1.0\n").map_err(&err)?;
            let mut seen = None;
            let before = time_each(w, n, |_| {
                syscalls::changed_every_iteration(&path, &mut seen).map_or(-1.0, f64::from)
            });
            let mut batched = syscalls::BatchedCheck::new(path.clone(), 1000);
            let after = time_each(w, n, |i| batched.changed(i).map_or(-1.0, f64::from));
            let watched =
                syscalls::WatchedFile::new(path.clone(), Duration::from_millis(1)).map_err(&err)?;
            let elsewhere = time_each(w, n, |_| f64::from(u8::from(watched.changed())));
            watched.stop().map_err(&err)?;
            vec![
                m("syscalls", "stat every iteration", before),
                m("syscalls", "stat every 1000th", after),
                m("syscalls", "stat on another thread", elsewhere),
            ]
        }
        "copying" => {
            let before = time_each(w, n, |_| copying::cloning(&frame));
            let after = time_each(w, n, |_| copying::borrowing(&frame));
            vec![m("copying", "clone", before), m("copying", "borrow", after)]
        }
        "validation" => {
            let before = time_each(w, n, |_| {
                validation::energy_checking_inside(&frame).unwrap_or(f64::NAN)
            });
            let valid = validation::ValidFrame::new(&frame);
            let after = time_each(w, n, |_| {
                valid.as_ref().map_or(f64::NAN, validation::energy)
            });
            // A frame used once: its validation is part of every iteration.
            let once = time_each(w, n, |_| {
                validation::ValidFrame::new(&frame).map_or(f64::NAN, |v| validation::energy(&v))
            });
            vec![
                m("validation", "checked inside the loop", before),
                m("validation", "validated before the loop", after),
                m("validation", "validate + energy", once),
            ]
        }
        "keys" => {
            use keys::Channel;
            let mut by_name = keys::ByName::new();
            let before = time_each(w, n, |i| {
                for (c, &x) in Channel::ALL.iter().cycle().zip(&frame[..64]) {
                    by_name.add(c.name(), f64::from(x) + i as f64);
                }
                by_name.get("light")
            });
            let mut by_enum = keys::ByEnum::default();
            let after = time_each(w, n, |i| {
                for (&c, &x) in Channel::ALL.iter().cycle().zip(&frame[..64]) {
                    by_enum.add(c, f64::from(x) + i as f64);
                }
                by_enum.get(Channel::Light)
            });
            vec![
                m("keys", "string keys", before),
                m("keys", "enum index", after),
            ]
        }
        "batching" => {
            let mut out = vec![0.0; frame.len()];
            let before = time_each(w, n, |_| {
                f64::from(batching::per_sample(&frame, 0.5, &mut out))
            });
            let after = time_each(w, n, |_| {
                f64::from(batching::per_frame(&frame, 0.5, &mut out))
            });
            vec![
                m("batching", "a call per sample", before),
                m("batching", "a call per frame", after),
            ]
        }
        "vectorisation" => {
            use vectorisation::{fir_by_tap, fir_indexed, fir_iterators, output_len};
            let taps = vectorisation::smoothing_taps(FIR_TAPS);
            let mut out = vec![0.0; output_len(frame.len(), taps.len())];
            let mut run = |fir: fn(&[f32], &[f32], &mut [f32])| {
                time_each(w, n, |_| {
                    fir(&frame, &taps, &mut out);
                    f64::from(out[out.len() / 2])
                })
            };
            let (indexed, iterators, by_tap) =
                (run(fir_indexed), run(fir_iterators), run(fir_by_tap));
            vec![
                m("vectorisation", "indexed, one accumulator", indexed),
                m("vectorisation", "iterators, one accumulator", iterators),
                m("vectorisation", "loops swapped (SIMD)", by_tap),
            ]
        }
        "casts" => {
            let pixels = casts::pixel_frame(7);
            let mut out = vec![0u8; pixels.len()];
            let gain = 1.3;
            let before = time_each(w, n, |_| {
                casts::gain_per_pixel(&pixels, gain, &mut out);
                f64::from(out[out.len() / 2])
            });
            let after = time_each(w, n, |_| {
                casts::GainTable::new(gain).apply(&pixels, &mut out);
                f64::from(out[out.len() / 2])
            });
            vec![
                m("casts", "f32 as u8 per pixel", before),
                m("casts", "256-entry table per frame", after),
            ]
        }
        "handoff" => {
            let gap = Duration::from_micros(2);
            let mut rows = Vec::new();
            for (kind, name) in [
                (handoff::Handoff::Mutex, "Mutex<VecDeque>"),
                (handoff::Handoff::SpscRing, "SPSC ring"),
            ] {
                let r = handoff::measure(kind, sizes.messages, gap);
                rows.push(m("handoff", name, r.send));
                rows.push(m("handoff_delivery", name, r.delivery));
            }
            rows
        }
        "sleeping" => {
            use sleeping::{Sleeper, overshoot};
            let p = sizes.sleep_period;
            vec![
                m(
                    "sleeping",
                    "thread::sleep",
                    overshoot(Sleeper::Std, p, sizes.sleeps),
                ),
                m(
                    "sleeping",
                    "spin_sleep",
                    overshoot(Sleeper::SpinSleep, p, sizes.sleeps),
                ),
                m(
                    "sleeping",
                    "spin_sleep, spin_loop hint",
                    overshoot(Sleeper::SpinLoopHint, p, sizes.sleeps),
                ),
            ]
        }
        other => {
            return Err(MeasureError::UnknownRule {
                rule: other.to_owned(),
            });
        }
    })
}

fn measure_logging(sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let err = io_error("logging");
    let (w, n) = (sizes.warmup, sizes.iterations);
    let dir = tempfile::tempdir().map_err(&err)?;
    let file = |name: &str| std::fs::File::create(dir.path().join(name)).map_err(&err);
    let frame = sensor_frame(7);
    let record = |i: u64| logging::LogRecord {
        frame: i,
        mean: crate::workload::mean(&frame[..16]),
    };

    let mut line = logging::LineBuffered::new(file("line.log")?);
    let s1 = time_each(w, n, |i| line.log(record(i)).map_or(-1.0, |()| 0.0));
    let mut buffered = logging::Buffered::new(file("buffered.log")?);
    let s2 = time_each(w, n, |i| buffered.log(record(i)).map_or(-1.0, |()| 0.0));
    buffered.flush().map_err(&err)?;
    // The loop pushes faster than the logger writes, so a small ring fills and most pushes
    // fail; a ring that holds every record measures a push that succeeds. Both report drops.
    let off_thread = |capacity: usize, name: &str| {
        let mut off = logging::OffThread::new(file(name)?, capacity)?;
        let summary = time_each(w, n, |i| {
            off.log(record(i));
            0.0
        });
        let (_written, dropped) = off.finish().map_err(&err)?;
        Ok::<_, MeasureError>((summary, dropped))
    };
    let (s3, dropped3) = off_thread(4096, "off.log")?;
    let every_record = usize::try_from(w + n + 1)
        .unwrap_or(usize::MAX)
        .checked_next_power_of_two()
        .unwrap_or(4096);
    let (s4, dropped4) = off_thread(every_record, "off_large.log")?;
    let m = |variant, summary| Measured::new("logging", variant, summary);
    Ok(vec![
        m("line-buffered (println!)", s1),
        m("BufWriter", s2),
        Measured {
            dropped: Some(dropped3),
            ..m("off-thread (SPSC ring)", s3)
        },
        Measured {
            dropped: Some(dropped4),
            ..m("off-thread, ring holds every record", s4)
        },
    ])
}

/// Measures every rule in `rules` (names from [`RULES`]).
pub fn measure_all(rules: &[&str], sizes: Sizes) -> Result<Vec<Measured>, MeasureError> {
    let mut all = Vec::new();
    for rule in rules {
        all.extend(measure_rule(rule, sizes)?);
    }
    Ok(all)
}
