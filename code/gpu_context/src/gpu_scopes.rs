//! Nested, named GPU timing scopes, resolved once per frame.
//!
//! A thin layer over the `wgpu-profiler` crate: it owns the query sets and read-back buffers and
//! keeps frames in flight without stalling. This module adds what the course needs around it:
//! a device opened with the timestamp features scopes use, one call that ends a frame, and the
//! results as a plain tree ([`ScopeTiming`]) that other crates turn into traces or tables.

use crate::{GpuContext, GpuError, Requirements};

pub use wgpu_profiler::GpuProfiler;

/// One resolved scope: its label, when it started and ended on the GPU's clock (seconds, from an
/// origin the GPU chooses), and the scopes opened inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopeTiming {
    pub label: String,
    pub start_s: f64,
    pub end_s: f64,
    pub children: Vec<ScopeTiming>,
}

impl ScopeTiming {
    pub fn duration_s(&self) -> f64 {
        self.end_s - self.start_s
    }

    /// This scope and every scope under it, depth first, with their depth (0 for `self`).
    pub fn walk(&self) -> Vec<(usize, &ScopeTiming)> {
        let mut out = Vec::new();
        let mut stack = vec![(0, self)];
        while let Some((depth, scope)) = stack.pop() {
            out.push((depth, scope));
            stack.extend(scope.children.iter().rev().map(|c| (depth + 1, c)));
        }
        out
    }
}

/// The features a device needs so that scopes can sit on encoders and inside passes as well as
/// around passes.
pub fn scope_features() -> wgpu::Features {
    wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS
        | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES
}

// ANCHOR: gpu_scopes_create
/// A profiler for one device, and the frames it has resolved.
pub struct GpuScopes {
    profiler: GpuProfiler,
}

impl GpuScopes {
    /// Opens a context whose device has every timestamp feature that scopes use, or says which
    /// one the adapter lacks.
    pub fn open_context() -> Result<GpuContext, GpuError> {
        GpuContext::with_requirements(&Requirements {
            features: scope_features(),
            ..Default::default()
        })
    }

    /// Scopes with timestamps only. Debug groups (the names RenderDoc and Nsight show) are off:
    /// measurements do not need them. Mesa 22.3.6's lavapipe runs them (point_cloud_renderer's
    /// `a_named_frame_between_capture_calls_is_still_the_reference_frame` pushes them there).
    pub fn new(ctx: &GpuContext) -> Result<Self, ScopeError> {
        Self::with_debug_groups(ctx, false)
    }

    /// Like [`GpuScopes::new`]; with `debug_groups`, every scope is also a debug group that
    /// graphics debuggers show by name.
    pub fn with_debug_groups(ctx: &GpuContext, debug_groups: bool) -> Result<Self, ScopeError> {
        let settings = wgpu_profiler::GpuProfilerSettings {
            enable_debug_groups: debug_groups,
            ..Default::default()
        };
        let profiler = GpuProfiler::new(&ctx.device, settings).map_err(ScopeError::Create)?;
        Ok(Self { profiler })
    }
    // ANCHOR_END: gpu_scopes_create

    /// The profiler, to open scopes with: `scopes.profiler().scope("name", &mut encoder)`.
    pub fn profiler(&self) -> &GpuProfiler {
        &self.profiler
    }

    // ANCHOR: gpu_scopes_frame
    /// Records the copies that bring this frame's timestamps to a mappable buffer. Call once per
    /// frame, on the last encoder, after every scope of the frame is closed.
    pub fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder) {
        self.profiler.resolve_queries(encoder);
    }

    /// After the frame's submit: closes the frame, waits for the GPU, and returns the oldest
    /// finished frame's scopes (the one just submitted, since this waits).
    pub fn finish_frame(&mut self, ctx: &GpuContext) -> Result<Vec<ScopeTiming>, ScopeError> {
        self.profiler.end_frame().map_err(ScopeError::EndFrame)?;
        ctx.wait().map_err(ScopeError::Gpu)?;
        let period = ctx.queue.get_timestamp_period();
        let results = self
            .profiler
            .process_finished_frame(period)
            .unwrap_or_default();
        Ok(results.into_iter().filter_map(convert).collect())
    }
}
// ANCHOR_END: gpu_scopes_frame

/// Why a profiling frame could not be opened or closed.
#[derive(Debug)]
pub enum ScopeError {
    /// The profiler could not be created (its settings were refused).
    Create(wgpu_profiler::CreationError),
    /// A frame was ended with a scope still open or unresolved: close every scope and call
    /// [`GpuScopes::resolve`] before submitting.
    EndFrame(wgpu_profiler::EndFrameError),
    /// Waiting for the GPU failed.
    Gpu(GpuError),
}

impl std::fmt::Display for ScopeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Create(_) => write!(f, "the GPU profiler could not be created"),
            Self::EndFrame(_) => write!(
                f,
                "the profiling frame could not end: close every scope and call resolve() on the \
                 frame's last encoder before submitting it"
            ),
            Self::Gpu(_) => write!(f, "waiting for the profiled GPU work failed"),
        }
    }
}

impl std::error::Error for ScopeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Create(err) => Some(err),
            Self::EndFrame(err) => Some(err),
            Self::Gpu(err) => Some(err),
        }
    }
}

/// A scope without a time (timestamps off for that kind of recorder) is left out with its
/// children: moving them up a level would show a nesting that was never recorded.
fn convert(result: wgpu_profiler::GpuTimerQueryResult) -> Option<ScopeTiming> {
    let time = result.time?;
    Some(ScopeTiming {
        label: result.label,
        start_s: time.start,
        end_s: time.end,
        children: result
            .nested_queries
            .into_iter()
            .filter_map(convert)
            .collect(),
    })
}
