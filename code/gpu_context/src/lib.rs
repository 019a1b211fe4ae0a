//! The course's one place for GPU set-up.
//!
//! Every crate that touches wgpu goes through this crate, so that getting a device, moving data
//! and timing work is written once and reads the same everywhere:
//!
//! - [`GpuContext::new`] finds an adapter (a real GPU first, a software one second) and opens a
//!   device, or returns a [`GpuError`] that says what to install;
//! - [`GpuContext::upload`], [`GpuContext::storage_buffer`] and [`GpuContext::download`] move
//!   plain data (`bytemuck::Pod`) to and from storage buffers; [`GpuContext::open`] and
//!   [`GpuContext::download_async`] are the same steps as futures, for a browser page that must
//!   never block (the book's demos);
//! - [`PipelineCache`] compiles a compute pipeline once per (shader source, entry point);
//! - [`GpuContext::time_commands`] times GPU work with timestamp queries when the adapter has them,
//!   and with the CPU clock when it does not;
//! - [`GpuScopes`] times nested, named scopes around passes, resolved once per frame;
//! - [`AdapterReport`] describes the adapter for humans, logs and figure sidecars.

mod buffers;
mod compile;
mod context;
mod error;
mod gpu_scopes;
mod pipeline_cache;
mod report;
mod surface;
mod timing;

pub use buffers::ReadbackBuffer;
pub use compile::Specialisation;
pub use context::{GpuContext, Requirements};
pub use error::GpuError;
pub use gpu_scopes::{GpuProfiler, GpuScopes, ScopeError, ScopeTiming, scope_features};
pub use pipeline_cache::PipelineCache;
pub use report::AdapterReport;
pub use surface::{ColorSpace, RenderGpu, WgpuHasDisplayHandle, surface_config};
pub use timing::{TimedRun, TimingSource};

/// wgpu itself, re-exported so that every crate uses the same version through this one.
pub use wgpu;

/// How native code waits for one of the asynchronous steps above (`GpuContext::open`,
/// `download_async`, …): a browser page awaits the same futures instead.
pub use pollster::block_on;

/// Number of workgroups needed to cover `items` with groups of `workgroup_size` threads.
///
/// ```
/// assert_eq!(gpu_context::workgroups_for(1000, 64), 16);
/// assert_eq!(gpu_context::workgroups_for(1024, 64), 16);
/// ```
pub fn workgroups_for(items: u32, workgroup_size: u32) -> u32 {
    items.div_ceil(workgroup_size)
}
