//! What the module's kernel-timing programs (the exercises' given `speed` examples) share: a
//! graph program's dispatch time as the median of several runs, and the words and numbers of the
//! tables they print. Each example keeps only what it compares.

use std::time::Duration;

use bench_harness::measure_durations;
use gpu_context::{GpuContext, TimingSource};

use crate::Error;
use crate::gpu_program::GpuProgram;

// A kernel-timing program's command line: `--quick`, and clap's `--help`. Each program gives
// its own name, its own line for `--help` and its own words for what `--quick` leaves out.
#[derive(Clone, Copy, Debug, clap::Parser)]
struct SpeedArgs {
    #[arg(long)]
    quick: bool,
}

/// How many untimed and timed runs per kernel and size: `--quick` (the only flag) asks for fewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runs {
    pub warmup: usize,
    pub timed: usize,
}

impl Runs {
    /// Reads the program's arguments with clap: none, or `--quick`, whose help is `quick_help`
    /// (`about` is what `--help` says the program does). Returns whether `--quick` was given,
    /// and the runs that go with it. Anything else prints the usage and ends the program
    /// (status 2), as clap does for every program of the course.
    pub fn from_args(
        name: &'static str,
        about: &'static str,
        quick_help: &'static str,
    ) -> (bool, Runs) {
        Self::parse_from(name, about, quick_help, std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// [`Runs::from_args`] on the given arguments (the program's name first), for tests.
    pub fn parse_from<I, T>(
        name: &'static str,
        about: &'static str,
        quick_help: &'static str,
        args: I,
    ) -> Result<(bool, Runs), clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{CommandFactory, FromArgMatches};
        let matches = SpeedArgs::command()
            .name(name)
            .about(about)
            .mut_arg("quick", |arg| arg.help(quick_help))
            .try_get_matches_from(args)?;
        let quick = SpeedArgs::from_arg_matches(&matches)?.quick;
        Ok((quick, Self::for_quick(quick)))
    }

    /// The runs for a full table, or fewer with `--quick`.
    pub fn for_quick(quick: bool) -> Runs {
        if quick {
            Runs {
                warmup: 1,
                timed: 5,
            }
        } else {
            Runs {
                warmup: 2,
                timed: 9,
            }
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
    fn quick_is_the_only_flag_and_others_are_refused_with_the_usage() {
        let parse = |args: &[&str]| {
            Runs::parse_from(
                "speed",
                "Times a kernel.",
                "fewer sizes",
                std::iter::once("speed").chain(args.iter().copied()),
            )
        };
        assert_eq!(parse(&[]).unwrap(), (false, Runs::for_quick(false)));
        assert_eq!(parse(&["--quick"]).unwrap(), (true, Runs::for_quick(true)));
        let refused = parse(&["--fast"]).unwrap_err();
        assert_eq!(refused.kind(), clap::error::ErrorKind::UnknownArgument);
        assert!(
            refused.to_string().contains("Usage: speed [OPTIONS]"),
            "{refused}"
        );
        let help = parse(&["--help"]).unwrap_err().to_string();
        assert!(help.starts_with("Times a kernel."), "{help}");
        assert!(help.contains("--quick  fewer sizes"), "{help}");
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
