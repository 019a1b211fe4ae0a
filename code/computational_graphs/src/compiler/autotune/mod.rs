//! The autotuner: for each Linear shape, time a small set of kernel configurations on the
//! device, keep the fastest correct one, and remember it per adapter and shape.
//!
//! The idea is Triton's `autotune` and cuBLAS's per-device heuristics: which block shape, k-step
//! and grid win depends on the GPU, the driver and the shape, and a measurement is cheaper to get
//! right than a model. The steps for a shape not yet in the cache:
//!
//! 1. [`candidates`]: configurations whose blocks fit the product, the heuristic's first;
//! 2. [`trial`]: each one compiled for the shape and run once on random inputs, its output
//!    compared with the CPU's; a candidate that differs is rejected, never timed;
//! 3. the correct ones timed (GPU timestamps where the adapter has them, else the wall clock
//!    around submit and wait) after a warm-up, in rounds of one sample each, so that a drift
//!    of the GPU's clocks affects them all alike; the fastest median wins (the first on a tie);
//! 4. [`cache`]: the winner stored under (adapter, shape), and written to the cache file if the
//!    tuner has one, so that the next run skips steps 1–3.
//!
//! Where a shape's blocks are too few to fill a large GPU, [`split_k`] configurations (several
//! workgroups sharing one block of C along k, then a reduction) join the candidates.
//!
//! A chain of small Linears run as one kernel is tuned the same way ([`chain_tune`]): its
//! layouts (one row per workgroup, or blocks of rows) checked and timed on the chain itself.

pub mod cache;
pub mod candidates;
pub mod chain_tune;
pub mod split_k;
pub mod trial;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gpu_context::GpuContext;

pub use cache::{AdapterKey, CacheFileError, ChainEntry, ChainKey, Entry, ShapeKey, TuneCache};
pub use candidates::{KernelConfig, candidates, search_space, split_k_space};
pub use chain_tune::ChainTimings;
pub use split_k::{LinearBuffers, LinearKernel, SplitK};
use trial::median;

use crate::Error;
use crate::compiler::chain::{self, Link};
use crate::compiler::chain_block::ChainLayout;
use crate::graph::VerifiedGraph;
use crate::matmul_ladder::tuned::Tuning;
use crate::ops::gpu::linear_tuning;

/// How an [`Autotuner`] is set up.
#[derive(Clone, Debug, Default)]
pub struct AutotuneSettings {
    /// A JSON file of earlier winners: read when the tuner is made, written by [`Autotuner::save`].
    pub cache_file: Option<PathBuf>,
    /// Tune on a software adapter (lavapipe) too. Off by default: timings of a CPU pretending to
    /// be a GPU say nothing about GPUs, and the heuristic is deterministic.
    pub tune_software: bool,
    /// Timed samples per candidate (the median is kept); 0 means the default of 5.
    pub samples: usize,
    /// How long the GPU runs a candidate before the samples of a shape; `None` means the
    /// default of 300 ms. Tests that tune on lavapipe only to check correctness need none.
    pub warm_up: Option<Duration>,
}

/// What happened for one shape: tuned now, found in the cache, or left to the heuristic.
#[derive(Clone, Debug)]
pub struct TuneRecord {
    pub shape: ShapeKey,
    pub source: Source,
    pub winner: KernelConfig,
    /// The winner's median time per product (tuned now or read from the cache).
    pub winner_s: Option<f64>,
    /// The heuristic's median time per product, when it was timed (tuned now).
    pub heuristic_s: Option<f64>,
    pub candidates: usize,
    /// Candidates that could not run here or differed from the CPU, with the reason.
    pub rejected: Vec<(KernelConfig, String)>,
    /// Compiling, checking and timing the candidates.
    pub tuning_time: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Tuned,
    Cache,
    Heuristic,
}

/// What happened for one chain: every layout timed with its median, and the rejected ones with
/// the reason (both empty when the winner came from the cache or the heuristic).
#[derive(Clone, Debug)]
pub struct ChainRecord {
    pub key: ChainKey,
    pub source: Source,
    pub winner: ChainLayout,
    pub winner_s: Option<f64>,
    pub timed: Vec<(ChainLayout, f64)>,
    pub rejected: Vec<(ChainLayout, String)>,
    pub tuning_time: Duration,
}

/// How long the GPU runs a candidate before the timed samples of a shape, by default.
const WARM_UP: Duration = Duration::from_millis(300);

// ANCHOR: autotuner
/// Picks a tuned matmul per Linear shape by measurement, remembering winners per adapter.
pub struct Autotuner {
    adapter: AdapterKey,
    cache: TuneCache,
    settings: AutotuneSettings,
    /// What happened for each shape, in the order they were first met.
    pub records: Vec<TuneRecord>,
    /// What happened for each chain, in the order they were first met.
    pub chain_records: Vec<ChainRecord>,
    software: bool,
}
// ANCHOR_END: autotuner

impl Autotuner {
    /// A tuner for `ctx`'s adapter, with the winners of the cache file if there is one. A file
    /// that cannot be read or parsed is an error that names it (delete it to start afresh).
    pub fn new(ctx: &GpuContext, settings: AutotuneSettings) -> Result<Self, CacheFileError> {
        let cache = match &settings.cache_file {
            Some(path) => TuneCache::load(path)?,
            None => TuneCache::default(),
        };
        Ok(Autotuner {
            adapter: AdapterKey::of(ctx),
            cache,
            software: ctx.report().is_software(),
            settings,
            records: Vec::new(),
            chain_records: Vec::new(),
        })
    }

    pub fn adapter(&self) -> &AdapterKey {
        &self.adapter
    }

    pub fn cache(&self) -> &TuneCache {
        &self.cache
    }

    /// Writes the cache file (every adapter's entries); nothing to do without one.
    pub fn save(&self) -> Result<(), CacheFileError> {
        match &self.settings.cache_file {
            Some(path) => self.cache.save(path),
            None => Ok(()),
        }
    }

    /// Seconds spent tuning since this tuner was made.
    pub fn tuning_time(&self) -> Duration {
        let linears: Duration = self.records.iter().map(|r| r.tuning_time).sum();
        let chains: Duration = self.chain_records.iter().map(|r| r.tuning_time).sum();
        linears + chains
    }

    fn samples(&self) -> usize {
        if self.settings.samples == 0 {
            5
        } else {
            self.settings.samples
        }
    }

    // ANCHOR: choose_chain
    /// The layout of one chain kernel (links `first..=last` of a run that `find_chains` found):
    /// the cached winner for this adapter and chain, else the winner of a fresh tuning, or
    /// [`ChainLayout::heuristic`] on a software adapter (unless the settings ask to tune there).
    pub fn choose_chain(
        &mut self,
        ctx: &GpuContext,
        graph: &VerifiedGraph,
        links: &[Link],
    ) -> Result<ChainLayout, Error> {
        let key = ChainKey::of(links);
        let known = self.chain_records.iter().any(|r| r.key == key);
        let mut record = |source: Source, winner: ChainLayout, median: Option<f64>| {
            if !known {
                self.chain_records.push(ChainRecord {
                    key: key.clone(),
                    source,
                    winner,
                    winner_s: median,
                    timed: Vec::new(),
                    rejected: Vec::new(),
                    tuning_time: Duration::ZERO,
                });
            }
        };
        let widest = chain::widest(links);
        if self.software && !self.settings.tune_software {
            let layout = ChainLayout::heuristic(key.rows, widest, &ctx.device.limits());
            record(Source::Heuristic, layout, None);
            return Ok(layout);
        }
        if let Some(entry) = self.cache.get_chain(&self.adapter, &key) {
            let (layout, median) = (entry.layout, entry.median_us * 1e-6);
            if layout.unusable(widest, &ctx.device.limits()).is_none() {
                record(Source::Cache, layout, Some(median));
                return Ok(layout);
            }
        }
        let warm_up = self.settings.warm_up.unwrap_or(WARM_UP);
        let start = Instant::now();
        let tuned = chain_tune::tune_chain(ctx, graph, links, self.samples(), warm_up)?;
        let (winner, winner_s) = tuned.winner();
        self.cache.insert_chain(ChainEntry {
            adapter: self.adapter.clone(),
            key: key.clone(),
            layout: winner,
            median_us: winner_s * 1e6,
        });
        self.chain_records.push(ChainRecord {
            key,
            source: Source::Tuned,
            winner,
            winner_s: Some(winner_s),
            timed: tuned.timed,
            rejected: tuned.rejected,
            tuning_time: start.elapsed(),
        });
        Ok(winner)
    }
    // ANCHOR_END: choose_chain

    // ANCHOR: choose
    /// The kernel for one Linear: the cached winner for this adapter and shape, else the
    /// winner of a fresh tuning (or the heuristic's choice on a software adapter, unless the
    /// settings ask to tune there too).
    pub fn choose(&mut self, ctx: &GpuContext, shape: ShapeKey) -> Result<LinearKernel, Error> {
        let ShapeKey { m, k, n, epilogue } = shape;
        let heuristic = linear_tuning(m, k, n, epilogue);
        if self.software && !self.settings.tune_software {
            self.record(shape, Source::Heuristic, KernelConfig::of(&heuristic), None);
            return Ok(LinearKernel::Tiled(heuristic));
        }
        if let Some(entry) = self.cache.get(&self.adapter, &shape) {
            let config = entry.config;
            let median = entry.median_us * 1e-6;
            // A file may have been edited by hand: a configuration this device cannot run is
            // tuned again rather than compiled.
            if config.unusable(&ctx.device.limits()).is_none() {
                self.record(shape, Source::Cache, config, Some(median));
                return Ok(config.kernel(m, k, n, epilogue));
            }
        }
        let record = self.tune(ctx, shape, &heuristic)?;
        let winner = record.winner;
        self.cache.insert(Entry {
            adapter: self.adapter.clone(),
            shape,
            config: winner,
            median_us: record.winner_s.unwrap_or(0.0) * 1e6,
        });
        self.records.push(record);
        Ok(winner.kernel(m, k, n, epilogue))
    }
    // ANCHOR_END: choose

    fn record(&mut self, shape: ShapeKey, source: Source, winner: KernelConfig, s: Option<f64>) {
        // One record per shape is enough: a graph meets the same shape many times, and a shape
        // tuned earlier in this run keeps the record of its tuning.
        if !self.records.iter().any(|r| r.shape == shape) {
            self.records.push(TuneRecord {
                shape,
                source,
                winner,
                winner_s: s,
                heuristic_s: None,
                candidates: 0,
                rejected: Vec::new(),
                tuning_time: Duration::ZERO,
            });
        }
    }

    // ANCHOR: tune
    fn tune(
        &self,
        ctx: &GpuContext,
        shape: ShapeKey,
        heuristic: &Tuning,
    ) -> Result<TuneRecord, Error> {
        let start = Instant::now();
        let ShapeKey { m, k, n, epilogue } = shape;
        let samples = if self.settings.samples == 0 {
            5
        } else {
            self.settings.samples
        };
        let trial = trial::Trial::new(ctx, shape)?;
        let configs = candidates(m, k, n, heuristic);
        let limits = ctx.device.limits();
        let mut rejected = Vec::new();
        let mut checked = Vec::new();
        for config in configs.iter().copied() {
            if let Some(why) = config.unusable(&limits) {
                rejected.push((config, why));
                continue;
            }
            match trial.check_kernel(ctx, &config.kernel(m, k, n, epilogue))? {
                Ok(prepared) => checked.push((config, prepared)),
                Err(why) => {
                    tracing::warn!("autotune {m}×{k}·{k}×{n}: {config:?} rejected: {why}");
                    rejected.push((config, why));
                }
            }
        }
        let Some((_, first)) = checked.first() else {
            return Err(Error::Unsupported {
                kernel: "autotuned linear",
                detail: format!(
                    "no candidate computed {m}×{k} · {k}×{n} correctly on this adapter: {rejected:?}"
                ),
            });
        };
        // Compiling left the GPU mostly idle: bring its clocks up before any sample counts.
        trial.warm_up(ctx, first, self.settings.warm_up.unwrap_or(WARM_UP))?;
        // Round robin: the i-th samples of all candidates are taken in the same stretch of
        // time, so a drift of the clocks moves them all alike.
        let mut times = vec![Vec::with_capacity(samples); checked.len()];
        for _ in 0..samples {
            for (i, (_, prepared)) in checked.iter().enumerate() {
                times[i].push(trial.time_once(ctx, prepared)?);
            }
        }
        let medians: Vec<f64> = times.into_iter().map(median).collect();
        // The fastest median wins; the first on a tie (the heuristic's, when it is among them).
        let mut best = 0;
        for (i, &t) in medians.iter().enumerate() {
            if t < medians[best] {
                best = i;
            }
        }
        let winner = checked[best].0;
        let heuristic_s = checked
            .iter()
            .position(|(c, _)| *c == configs[0])
            .map(|i| medians[i]);
        let winner_s = medians[best];
        Ok(TuneRecord {
            shape,
            source: Source::Tuned,
            winner,
            winner_s: Some(winner_s),
            heuristic_s,
            candidates: configs.len(),
            rejected,
            tuning_time: start.elapsed(),
        })
    }
    // ANCHOR_END: tune
}
