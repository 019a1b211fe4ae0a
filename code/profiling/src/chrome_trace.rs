//! CPU spans to a Chrome trace file, and GPU scopes added beside them.
//!
//! `tracing-chrome` turns every entered span into a begin/end event pair in a JSON array, the
//! "Trace Event Format" that Perfetto (<https://ui.perfetto.dev>) and `chrome://tracing` open.
//! GPU scopes have their own clock, so they are placed on the trace by an anchor: each frame's
//! first GPU scope starts where the CPU's `submit` span for that frame ends.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use gpu_context::ScopeTiming;
use serde_json::{Value, json};
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::prelude::*;

/// Thread id the GPU's events are drawn on (far from the CPU threads' small ids).
pub const GPU_TID: u64 = 1_000;

/// Why a trace could not be written or read back.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("cannot write the trace file {path}: check that its folder exists and is writable")]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read the trace file {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the trace file {path} is not a JSON array of events")]
    Parse {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error(
        "the trace has {submits} `submit` spans but {frames} GPU frames: record one submit span \
         per profiled frame"
    )]
    Anchors { submits: usize, frames: usize },
}

// ANCHOR: record_to
/// Records every span at `level` or above on this thread into `path` until dropped.
pub struct ChromeTrace {
    // Field order is drop order: stop collecting first, then flush the file.
    _subscriber: tracing::subscriber::DefaultGuard,
    _flush: tracing_chrome::FlushGuard,
}

impl ChromeTrace {
    pub fn record_to(path: &Path, level: LevelFilter) -> Result<Self, TraceError> {
        let file = File::create(path).map_err(|source| TraceError::Create {
            path: path.to_owned(),
            source,
        })?;
        let (layer, flush) = tracing_chrome::ChromeLayerBuilder::new()
            .writer(BufWriter::new(file))
            .include_args(true)
            .build();
        let subscriber = tracing_subscriber::registry().with(level).with(layer);
        Ok(Self {
            _subscriber: tracing::subscriber::set_default(subscriber),
            _flush: flush,
        })
    }
}
// ANCHOR_END: record_to

/// The events of a trace file (a JSON array, as `tracing-chrome` writes it).
pub fn read_events(path: &Path) -> Result<Vec<Value>, TraceError> {
    let text = std::fs::read_to_string(path).map_err(|source| TraceError::Read {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| TraceError::Parse {
        path: path.to_owned(),
        source,
    })
}

// ANCHOR: gpu_events
/// Chrome "complete" events (`ph: X`) for one frame's GPU scopes, shifted so that the frame's
/// first scope starts at `anchor_us` on the trace's clock.
pub fn gpu_events(roots: &[ScopeTiming], anchor_us: f64) -> Vec<Value> {
    let Some(first) = roots.first() else {
        return Vec::new();
    };
    // Offsets from the first scope, added to the anchor: the first event lands exactly on the
    // anchor (shifting absolute times instead can round it to just before).
    let origin_s = first.start_s;
    roots
        .iter()
        .flat_map(|root| root.walk())
        .map(|(depth, scope)| {
            json!({
                "name": scope.label,
                "cat": "gpu",
                "ph": "X",
                "pid": 1,
                "tid": GPU_TID,
                "ts": anchor_us + (scope.start_s - origin_s) * 1e6,
                "dur": scope.duration_s() * 1e6,
                "args": { "depth": depth },
            })
        })
        .collect()
}
// ANCHOR_END: gpu_events

/// Adds GPU frames to a CPU trace: frame `i` is anchored at the end of the `i`-th `submit` span,
/// and the GPU row gets a name.
pub fn add_gpu_frames(path: &Path, frames: &[Vec<ScopeTiming>]) -> Result<(), TraceError> {
    let mut events = read_events(path)?;
    let submit_ends: Vec<f64> = events
        .iter()
        .filter(|e| e["name"] == "submit" && e["ph"] == "E")
        .filter_map(|e| e["ts"].as_f64())
        .collect();
    if submit_ends.len() != frames.len() {
        return Err(TraceError::Anchors {
            submits: submit_ends.len(),
            frames: frames.len(),
        });
    }
    events.push(json!({
        "name": "thread_name", "ph": "M", "pid": 1, "tid": GPU_TID,
        "args": { "name": "GPU (timestamp queries)" },
    }));
    for (roots, anchor) in frames.iter().zip(submit_ends) {
        events.extend(gpu_events(roots, anchor));
    }
    let text = serde_json::to_string(&events).expect("JSON values always serialise");
    std::fs::write(path, text).map_err(|source| TraceError::Create {
        path: path.to_owned(),
        source,
    })
}

// ANCHOR: span_totals
/// For every `frame` span in a trace (in order), the time of each of its direct children, added
/// up by name, in microseconds, and the frame's own time under the frame's name. Spans are
/// paired begin to end on each thread, as `tracing-chrome` writes them.
pub fn span_totals(events: &[Value], frame: &str) -> Vec<Vec<(String, f64)>> {
    let mut open: Vec<(u64, String, f64)> = Vec::new();
    let mut frames = Vec::new();
    let mut current: Vec<(String, f64)> = Vec::new();
    for e in events {
        let (Some(name), Some(ts), tid) = (e["name"].as_str(), e["ts"].as_f64(), e["tid"].as_u64())
        else {
            continue;
        };
        let tid = tid.unwrap_or(0);
        match e["ph"].as_str() {
            Some("B") => open.push((tid, name.to_owned(), ts)),
            Some("E") => {
                let Some(at) = open.iter().rposition(|(t, n, _)| *t == tid && n == name) else {
                    continue;
                };
                let (_, _, start) = open.remove(at);
                let parent = open.iter().rev().find(|(t, _, _)| *t == tid);
                if name == frame {
                    current.push((name.to_owned(), ts - start));
                    frames.push(std::mem::take(&mut current));
                } else if parent.is_some_and(|(_, n, _)| n == frame) {
                    match current.iter_mut().find(|(n, _)| n == name) {
                        Some((_, total)) => *total += ts - start,
                        None => current.push((name.to_owned(), ts - start)),
                    }
                }
            }
            _ => {}
        }
    }
    frames
}
// ANCHOR_END: span_totals
