//! What the module's kernel-timing programs (the exercises' given `speed` examples) share: a
//! graph program's dispatch time as the median of several runs, and the words and numbers of the
//! tables they print. Each example keeps only what it compares.

use std::time::Duration;

use bench_harness::measure_durations;
use gpu_context::{GpuContext, TimingSource};

use crate::Error;
use crate::gpu_program::GpuProgram;

/// Arguments a kernel-timing program does not take; the message repeats its usage line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unexpected arguments {args:?}\n{usage}")]
pub struct UsageError {
    pub args: Vec<String>,
    pub usage: String,
}

/// How many untimed and timed runs per kernel and size: `--quick` (the only flag) asks for fewer.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    pub warmup: usize,
    pub timed: usize,
}

impl Runs {
    /// Reads the program's arguments: none, or `--quick`; anything else is refused with `usage`.
    /// Returns whether `--quick` was given, and the runs that go with it.
    pub fn from_args(usage: &str) -> Result<(bool, Runs), UsageError> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.as_slice() {
            [] => Ok((
                false,
                Runs {
                    warmup: 2,
                    timed: 9,
                },
            )),
            [flag] if flag == "--quick" => Ok((
                true,
                Runs {
                    warmup: 1,
                    timed: 5,
                },
            )),
            _ => Err(UsageError {
                args,
                usage: usage.to_owned(),
            }),
        }
    }

    /// "median of 9 runs after 2 warm-ups", for a table's caption.
    pub fn describe(&self) -> String {
        let warmups = match self.warmup {
            1 => "1 warm-up".to_string(),
            n => format!("{n} warm-ups"),
        };
        format!("median of {} runs after {warmups}", self.timed)
    }
}

/// Opens the GPU and says which it is; on a software adapter, `software_note` says what to expect.
pub fn open_gpu(software_note: &str) -> Result<GpuContext, Error> {
    let ctx = GpuContext::new()?;
    let report = ctx.report();
    println!(
        "adapter: {} ({}, {}, driver {})",
        report.name, report.backend, report.device_type, report.driver
    );
    if report.is_software() {
        println!("({software_note})");
    }
    Ok(ctx)
}

/// The median time of the program's dispatches, each run submitted and waited for on its own,
/// and what measured it (GPU timestamps where the adapter has them, the CPU clock otherwise).
pub fn median_time(
    ctx: &GpuContext,
    program: &GpuProgram,
    runs: Runs,
) -> Result<(Duration, TimingSource), Error> {
    let mut source = TimingSource::CpuWallClock;
    let mut failed = None;
    let stats = measure_durations(runs.warmup, runs.timed, || {
        match ctx.time_commands(|encoder| program.record(encoder, 1)) {
            Ok(run) => {
                source = run.source;
                run.time
            }
            Err(e) => {
                failed.get_or_insert(e);
                Duration::ZERO
            }
        }
    });
    match failed {
        Some(e) => Err(e.into()),
        None => Ok((Duration::from_secs_f64(stats.median), source)),
    }
}

/// What measured the times, in words for a table's caption.
pub fn source_words(source: TimingSource) -> &'static str {
    match source {
        TimingSource::GpuTimestamps => "GPU timestamps around the dispatch",
        TimingSource::CpuWallClock => "CPU clock around submit and wait (no GPU timestamps)",
    }
}

pub fn ms(t: Duration) -> f64 {
    t.as_secs_f64() * 1e3
}

/// About three significant digits, so that slow and fast devices both get readable rates.
pub fn rate(value: f64) -> String {
    match value {
        v if v >= 100.0 => format!("{v:.0}"),
        v if v >= 10.0 => format!("{v:.1}"),
        v if v >= 1.0 => format!("{v:.2}"),
        v => format!("{v:.3}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_keep_about_three_digits() {
        assert_eq!(rate(1234.4), "1234");
        assert_eq!(rate(12.34), "12.3");
        assert_eq!(rate(1.234), "1.23");
        assert_eq!(rate(0.01234), "0.012");
    }

    #[test]
    fn runs_describe_themselves() {
        let one = Runs {
            warmup: 1,
            timed: 5,
        };
        assert_eq!(one.describe(), "median of 5 runs after 1 warm-up");
        let two = Runs {
            warmup: 2,
            timed: 9,
        };
        assert_eq!(two.describe(), "median of 9 runs after 2 warm-ups");
    }
}
