//! The tuning cache: winners keyed by adapter and shape, in memory and as a JSON file.
//!
//! A configuration that won on one GPU (or driver) may be slow or not even fit on another, and
//! one that won for one shape says little about another, so both are in the key and a lookup
//! matches them exactly: the cache never serves another adapter's or another shape's winner.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gpu_context::GpuContext;

use super::candidates::KernelConfig;
use crate::compiler::chain::{ChainStep, Link};
use crate::compiler::chain_block::ChainLayout;
use crate::matmul_ladder::tuned::Epilogue;

// ANCHOR: key
/// Which adapter a result was measured on: the same GPU under another driver or backend is a
/// different adapter for the cache.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct AdapterKey {
    pub name: String,
    pub vendor: u32,
    pub device: u32,
    pub driver: String,
    pub driver_info: String,
    pub backend: String,
}

/// The product a Linear computes: m×k · k×n, then the epilogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ShapeKey {
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub epilogue: Epilogue,
}
// ANCHOR_END: key

impl AdapterKey {
    pub fn of(ctx: &GpuContext) -> Self {
        let info = ctx.adapter.get_info();
        AdapterKey {
            name: info.name,
            vendor: info.vendor,
            device: info.device,
            driver: info.driver,
            driver_info: info.driver_info,
            backend: format!("{:?}", info.backend),
        }
    }
}

/// One winner, with what it was measured at (for people reading the file).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    pub adapter: AdapterKey,
    pub shape: ShapeKey,
    pub config: KernelConfig,
    /// The winner's median time per product, microseconds.
    pub median_us: f64,
}

// ANCHOR: chain_key
/// What a chain computes, as far as its kernel's speed goes: its rows and its steps, e.g.
/// `256→256 relu ×63, 256→256, softmax 256` (runs of equal steps counted).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ChainKey {
    pub rows: usize,
    pub steps: String,
}
// ANCHOR_END: chain_key

impl ChainKey {
    pub fn of(links: &[Link]) -> ChainKey {
        let names: Vec<String> = links
            .iter()
            .flat_map(|l| &l.steps)
            .map(|s| match *s {
                ChainStep::Linear { k, n, relu, .. } => {
                    format!("{k}→{n}{}", if relu { " relu" } else { "" })
                }
                ChainStep::Relu { width } => format!("relu {width}"),
                ChainStep::Softmax { width } => format!("softmax {width}"),
            })
            .collect();
        let mut runs: Vec<(String, usize)> = Vec::new();
        for name in names {
            match runs.last_mut() {
                Some((last, count)) if *last == name => *count += 1,
                _ => runs.push((name, 1)),
            }
        }
        let steps = runs
            .into_iter()
            .map(|(name, count)| match count {
                1 => name,
                _ => format!("{name} ×{count}"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        ChainKey {
            rows: links.first().map_or(0, |l| l.rows),
            steps,
        }
    }
}

/// One chain's winner, with the time it was measured at.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChainEntry {
    pub adapter: AdapterKey,
    pub key: ChainKey,
    pub layout: ChainLayout,
    /// The winner's median time per run of the chain, microseconds.
    pub median_us: f64,
}

/// The file's layout; `format` changes when the layout does.
#[derive(serde::Serialize, serde::Deserialize)]
struct CacheFile {
    format: u32,
    entries: Vec<Entry>,
    /// Chain layouts; files written before chains were tuned have none.
    #[serde(default)]
    chains: Vec<ChainEntry>,
}

const FORMAT: u32 = 1;

/// Why a cache file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CacheFileError {
    #[error("cannot read the tuning cache {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the tuning cache {path} is not a valid cache file ({detail}); delete it, and the next \
         run tunes again and writes a new one"
    )]
    Malformed { path: PathBuf, detail: String },
    #[error("cannot write the tuning cache {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Winners for any number of adapters and shapes.
#[derive(Clone, Debug, Default)]
pub struct TuneCache {
    entries: HashMap<(AdapterKey, ShapeKey), Entry>,
    chains: HashMap<(AdapterKey, ChainKey), ChainEntry>,
}

impl TuneCache {
    /// The winner measured on exactly this adapter for exactly this shape.
    pub fn get(&self, adapter: &AdapterKey, shape: &ShapeKey) -> Option<&Entry> {
        self.entries.get(&(adapter.clone(), *shape))
    }

    pub fn insert(&mut self, entry: Entry) {
        self.entries
            .insert((entry.adapter.clone(), entry.shape), entry);
    }

    /// The chain layout measured on exactly this adapter for exactly this chain.
    pub fn get_chain(&self, adapter: &AdapterKey, key: &ChainKey) -> Option<&ChainEntry> {
        self.chains.get(&(adapter.clone(), key.clone()))
    }

    pub fn insert_chain(&mut self, entry: ChainEntry) {
        self.chains
            .insert((entry.adapter.clone(), entry.key.clone()), entry);
    }

    /// Entries of both kinds: Linear shapes and chains.
    pub fn len(&self) -> usize {
        self.entries.len() + self.chains.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads a cache file; a missing file is an empty cache.
    pub fn load(path: &Path) -> Result<Self, CacheFileError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(source) => {
                return Err(CacheFileError::Read {
                    path: path.into(),
                    source,
                });
            }
        };
        let malformed = |detail: String| CacheFileError::Malformed {
            path: path.into(),
            detail,
        };
        let file: CacheFile = serde_json::from_str(&text).map_err(|e| malformed(e.to_string()))?;
        if file.format != FORMAT {
            return Err(malformed(format!(
                "format {} where this program reads format {FORMAT}",
                file.format
            )));
        }
        let mut cache = Self::default();
        for entry in file.entries {
            cache.insert(entry);
        }
        for entry in file.chains {
            cache.insert_chain(entry);
        }
        Ok(cache)
    }

    /// Writes every entry (sorted, so that the file is stable from run to run).
    pub fn save(&self, path: &Path) -> Result<(), CacheFileError> {
        let mut entries: Vec<Entry> = self.entries.values().cloned().collect();
        entries.sort_by(|a, b| {
            (
                &a.adapter.name,
                &a.adapter.driver,
                a.shape.m,
                a.shape.k,
                a.shape.n,
            )
                .cmp(&(
                    &b.adapter.name,
                    &b.adapter.driver,
                    b.shape.m,
                    b.shape.k,
                    b.shape.n,
                ))
                .then(format!("{:?}", a.shape.epilogue).cmp(&format!("{:?}", b.shape.epilogue)))
        });
        let mut chains: Vec<ChainEntry> = self.chains.values().cloned().collect();
        chains.sort_by(|a, b| {
            (&a.adapter.name, &a.adapter.driver, a.key.rows, &a.key.steps).cmp(&(
                &b.adapter.name,
                &b.adapter.driver,
                b.key.rows,
                &b.key.steps,
            ))
        });
        let file = CacheFile {
            format: FORMAT,
            entries,
            chains,
        };
        let text = serde_json::to_string_pretty(&file).expect("plain data always serialises");
        std::fs::write(path, text + "\n").map_err(|source| CacheFileError::Write {
            path: path.into(),
            source,
        })
    }
}
