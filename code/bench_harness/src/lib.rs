//! Benchmarks as programs, the way the course measures everything it reports.
//!
//! - [`measure`] warms up, takes several samples and reports the median and the spread;
//! - [`Progress`] shows a progress bar on long sweeps (and stays quiet when not on a terminal);
//! - [`Figure`] writes a figure's table (typed rows through `serde` and `csv`), chart and
//!   sidecar in one go, and [`read_rows`] reads the table back; [`LineChart`] and [`BarChart`]
//!   draw the chart;
//! - [`Sidecar`] records which machine, device, commit, load and command produced a figure;
//! - [`FigureArgs`] is the command line every figure program shares, and refuses to measure from
//!   an uncommitted tree or on a busy machine unless told to; its `--redraw` draws a program's
//!   charts again from the tables it measured ([`FigureArgs::redraw`], [`Found`], [`Drawn`]),
//!   and [`check_committed`] / [`CommittedFigures`] test that it reproduces the committed charts;
//! - [`digits`] rounds a table's values to the digits it keeps, so charts redraw identically;
//! - [`rng::SplitMix64`] is the one seeded generator every crate's benchmark data comes from;
//! - [`counting_alloc`] has global allocators that count allocations (per thread, or all).
//!
//! Figures live in the repository's `figures/` folder ([`figures_dir`]); the book shows them
//! from there, so every number in the book can be traced to the program that produced it.

mod args;
mod chart;
mod committed;
pub mod counting_alloc;
pub mod digits;
mod figure;
mod machine;
mod output;
mod provenance;
mod redraw;
pub mod rng;
mod stats;

pub use args::{FigureArgs, FigureArgsError, exit_code};
pub use chart::{Bar, BarChart, LineChart, Point, Series};
pub use committed::{CommittedFigures, CommittedRedraw, check_committed, committed_figures_dir};
pub use figure::{Figure, FigureError, read_rows, read_sidecar, rows_from_csv, rows_to_csv};
pub use machine::{CacheLevel, MachineInfo, cpu_list};
pub use output::{CacheRecord, Csv, Sidecar, SidecarRecord, figures_dir};
pub use provenance::{GitState, git_commit, git_state, load_average};
pub use redraw::{Drawn, Found, RedrawError, RedrawReport, copy_figures, figures_of, redraw_note};
pub use stats::{Stats, measure, measure_durations};

pub use std::hint::black_box;

/// A progress bar for a sweep of `steps` steps; hidden when stderr is not a terminal.
pub struct Progress(indicatif::ProgressBar);

impl Progress {
    pub fn new(steps: u64, what: &str) -> Self {
        let bar = indicatif::ProgressBar::new(steps);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg:>24} [{bar:30}] {pos}/{len} {elapsed}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what.to_owned());
        Self(bar)
    }

    /// Advances by one step and says what is being measured now.
    pub fn step(&self, now: &str) {
        self.0.set_message(now.to_owned());
        self.0.inc(1);
    }

    pub fn finish(self) {
        self.0.finish_and_clear();
    }
}
