use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::GpuError;

/// Compute pipelines keyed by (WGSL source, entry point).
///
/// Compiling a pipeline costs milliseconds (WGSL → naga IR → SPIR-V → driver code); dispatching
/// one costs microseconds. Keying by the full source text means generated shaders that come out
/// identical share one pipeline, and a changed shader can never pick up a stale one.
///
/// Specialised pipelines (override constants) also keep their shader module, keyed by source and
/// checks: parsing and validating WGSL is most of a compilation, and one module serves every set
/// of constants (an autotuner compiles each candidate kernel for many shapes).
#[derive(Default)]
pub struct PipelineCache {
    pipelines: Mutex<HashMap<(String, String), Arc<wgpu::ComputePipeline>>>,
    modules: Mutex<HashMap<(String, bool), wgpu::ShaderModule>>,
    compilations: AtomicUsize,
}

impl PipelineCache {
    /// How many pipelines this cache has compiled (a hit compiles nothing).
    pub fn compilations(&self) -> usize {
        self.compilations.load(Ordering::Relaxed)
    }

    /// How many distinct pipelines the cache holds.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pipeline under `key`, compiled by `compile` on first use only. The compilation runs
    /// outside the lock: another thread may compile the same shader meanwhile, which wastes work
    /// but is never wrong, and nobody waits on a slow compilation they do not need.
    pub(crate) fn get_or_compile(
        &self,
        key: (String, String),
        compile: impl FnOnce() -> Result<wgpu::ComputePipeline, GpuError>,
    ) -> Result<Arc<wgpu::ComputePipeline>, GpuError> {
        if let Some(found) = self.lock().get(&key) {
            return Ok(Arc::clone(found));
        }
        let pipeline = Arc::new(compile()?);
        self.compilations.fetch_add(1, Ordering::Relaxed);
        Ok(Arc::clone(self.lock().entry(key).or_insert(pipeline)))
    }

    /// The module kept for this source and checks, if one has compiled a pipeline.
    pub(crate) fn module(&self, key: &(String, bool)) -> Option<wgpu::ShaderModule> {
        lock(&self.modules).get(key).cloned()
    }

    /// Keeps a module that has compiled a pipeline without error (an invalid one is never kept).
    pub(crate) fn keep_module(&self, key: (String, bool), module: wgpu::ShaderModule) {
        lock(&self.modules).entry(key).or_insert(module);
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<(String, String), Arc<wgpu::ComputePipeline>>> {
        lock(&self.pipelines)
    }
}

fn lock<T>(map: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned lock only means another thread panicked mid-insert; the map is still valid.
    map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
