//! A small path tracer on the GPU, written twice: as one **megakernel** (a thread follows its
//! path through every bounce) and as a **wavefront** of small kernels (generate → intersect →
//! shade, with ray queues in storage buffers), after Laine, Karras and Aila, "Megakernels
//! Considered Harmful: Wavefront Path Tracing on GPUs" (HPG 2013).
//!
//! The stages, each in its own module, in the order they depend on each other:
//!
//! - [`scene`]: triangles and materials (a closed room, a light, random small triangles);
//! - [`morton`]: 30-bit Morton codes of triangle centroids;
//! - [`bvh`]: a bounding volume hierarchy built from the sorted codes, flattened for the GPU,
//!   and the closest-hit traversal that the CPU and the shaders both run;
//! - [`sah`]: a second build of the same tree, by the binned surface area heuristic;
//! - [`sampling`]: the per-pixel random streams, the camera and the cosine-weighted bounce;
//! - [`reference`]: the CPU path tracer that the GPU images are tested against;
//! - [`gpu`]: the scene and the per-render buffers on the device;
//! - [`megakernel`] and [`wavefront`]: the two GPU renderers;
//! - [`lane_count`]: lane use of the walk, counted on the GPU by subgroup ballots.

pub mod bvh;
pub mod gpu;
pub mod lane_count;
pub mod megakernel;
pub mod morton;
pub mod reference;
pub mod sah;
pub mod sampling;
pub mod scene;
pub mod wavefront;

pub use gpu::{GpuScene, RenderError};
pub use sampling::RenderSettings;
pub use scene::Scene;
