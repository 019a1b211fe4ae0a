//! What one `tracing` span costs: entered and exited with nobody listening, with a subscriber
//! that filters it out by level, and recorded into a Chrome trace.

use std::hint::black_box;
use std::time::{Duration, Instant};

use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::prelude::*;

/// Who is listening while the spans are entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    /// No subscriber at all: the span's callsite is known to be off after its first use.
    Nobody,
    /// A subscriber that records INFO and above; the span is DEBUG, so it is filtered out.
    FilteredOut,
    /// `tracing-chrome` records every span (written to a sink, so no disk is measured).
    ChromeTrace,
}

impl Listener {
    pub const ALL: [Listener; 3] = [Self::Nobody, Self::FilteredOut, Self::ChromeTrace];

    pub fn name(self) -> &'static str {
        match self {
            Self::Nobody => "no subscriber",
            Self::FilteredOut => "filtered out by level",
            Self::ChromeTrace => "recorded (tracing-chrome)",
        }
    }
}

// ANCHOR: spans
/// The loop being measured: `spans` DEBUG spans, each entered and exited once, around a
/// trivial piece of work so that the loop is not removed.
fn enter_spans(spans: u64) -> u64 {
    let mut sum = 0u64;
    for i in 0..spans {
        let _span = tracing::debug_span!("step", i).entered();
        sum = sum.wrapping_add(black_box(i));
    }
    sum
}
// ANCHOR_END: spans

/// The time per span with this listener, minus the same loop without spans.
pub fn time_per_span(listener: Listener, spans: u64) -> Duration {
    let timed = |f: &dyn Fn() -> u64| {
        let start = Instant::now();
        black_box(f());
        start.elapsed()
    };
    let baseline = timed(&|| (0..spans).fold(0u64, |s, i| s.wrapping_add(black_box(i))));
    let with_spans = match listener {
        Listener::Nobody => timed(&|| enter_spans(spans)),
        Listener::FilteredOut => {
            let subscriber = tracing_subscriber::registry()
                .with(LevelFilter::INFO)
                .with(tracing_subscriber::fmt::layer().with_writer(std::io::sink));
            tracing::subscriber::with_default(subscriber, || timed(&|| enter_spans(spans)))
        }
        Listener::ChromeTrace => {
            let (layer, flush) = tracing_chrome::ChromeLayerBuilder::new()
                .writer(std::io::sink())
                .include_args(true)
                .build();
            let subscriber = tracing_subscriber::registry().with(layer);
            let elapsed =
                tracing::subscriber::with_default(subscriber, || timed(&|| enter_spans(spans)));
            drop(flush);
            elapsed
        }
    };
    with_spans.saturating_sub(baseline) / spans.max(1) as u32
}
