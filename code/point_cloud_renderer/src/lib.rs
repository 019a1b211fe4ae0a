//! Module 4 case study: a point-cloud renderer in compute shaders, profiled and optimized.
//!
//! Four passes per frame (clear, project, splat, resolve) over module 3's pieces: the depth and
//! id packed into one `u32` ([`quantization::specialisations::atomic_depth`]), its `atomicMin`
//! splat kernel ([`quantization::specialisations::gpu_splat`]) and its test scene. Each pass sits
//! in a `gpu_context` timing scope; the [`Variant`]s are the optimization steps the scopes
//! motivate. [`reference`](mod@reference) is the CPU renderer every variant is tested against.
//!
//! - [`camera`]: a pinhole camera, projected the same way on both sides;
//! - [`cloud`]: the points and their colours, in scene order or along a Morton curve;
//! - [`renderer`]: the GPU renderer and its variants;
//! - [`reference`](mod@reference): the CPU renderer;
//! - [`atomics`]: a debug splat that counts the atomics it issues;
//! - [`viewer`]: a live view in module 2's egui + winit + wgpu template.

pub mod atomics;
pub mod camera;
pub mod cloud;
pub mod reference;
pub mod renderer;
pub mod viewer;

pub use atomics::{AtomicCounts, CountedSplat};
pub use camera::Camera;
pub use cloud::PointCloud;
pub use renderer::{Frame, Renderer, Variant, packing_for};

use quantization::specialisations::atomic_depth::PackError;

/// The colour of a pixel no point reached (RGBA8, red in the low byte): `BACKGROUND` in
/// `resolve.wgsl`.
pub const BACKGROUND: u32 = 0xFF20_1810;

/// Why a frame could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(
        "{points} points need {id_bits} id bits, which leave fewer than the 8 depth bits the \
         32-bit packing needs: render at most 2^24 = 16 777 216 points per frame"
    )]
    TooManyPoints { points: usize, id_bits: u32 },
    #[error("the point cloud is empty: give it at least one point")]
    Empty,
    #[error("{positions} positions but {colours} colours: give every point one colour")]
    Colours { positions: usize, colours: usize },
    #[error(transparent)]
    Pack(#[from] PackError),
    #[error(transparent)]
    Gpu(#[from] gpu_context::GpuError),
    #[error("GPU timing scopes: {0}")]
    Scopes(#[from] gpu_context::ScopeError),
}
