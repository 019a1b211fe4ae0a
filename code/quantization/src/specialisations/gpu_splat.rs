//! The 32-bit depth test on the GPU: one invocation per point, one `atomicMin` per pixel.

use gpu_context::GpuContext;

use super::atomic_depth::{EMPTY32, PackError, Packing32};
use super::splat::{ScreenPoint, check_ids, check_image};

/// The kernel (`splat` entry point).
pub const SHADER: &str = include_str!("../wgsl/splat_atomic_min.wgsl");

/// At most this many workgroups in one dispatch; the kernel's loop covers the rest.
const MAX_GROUPS: u32 = 65_535;

/// The kernel's `Params`, field for field (binding 0; the points are binding 1, the image 2).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SplatParams {
    width: u32,
    height: u32,
    count: u32,
    id_bits: u32,
    near: f32,
    far: f32,
    scale: f32,
    max_code: u32,
}

impl SplatParams {
    /// The parameters for `count` points in a `width`×`height` image packed with `packing`.
    /// (The caller checks the image and the ids, as [`gpu_splat32`] does.)
    pub fn new(width: u32, height: u32, count: u32, packing: &Packing32) -> Self {
        Self {
            width,
            height,
            count,
            id_bits: packing.id_bits(),
            near: packing.near(),
            far: packing.far(),
            scale: packing.scale(),
            max_code: packing.max_code(),
        }
    }
}

// ANCHOR: gpu_splat32
/// What [`super::splat::splat32`] computes, on the GPU: every pixel's smallest packed
/// value ([`EMPTY32`] where no point landed).
pub fn gpu_splat32(
    ctx: &GpuContext,
    points: &[ScreenPoint],
    width: u32,
    height: u32,
    packing: &Packing32,
) -> Result<Vec<u32>, PackError> {
    let pixels = check_image(width, height)?;
    check_ids(points.len(), packing)?;
    if points.is_empty() {
        return Ok(vec![EMPTY32; pixels]);
    }
    let params = SplatParams::new(width, height, points.len() as u32, packing);
    let params = ctx.upload("splat params", &[params])?;
    let points_buf = ctx.upload("splat points", points)?;
    let image = ctx.upload("splat image", &vec![EMPTY32; pixels])?;
    let pipeline = ctx.cached_pipeline("splat_atomic_min", SHADER, "splat")?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&params, &points_buf, &image]);
    let groups = gpu_context::workgroups_for(points.len() as u32, 64).min(MAX_GROUPS);
    ctx.dispatch(&pipeline, &bind_group, [groups, 1, 1]);
    Ok(ctx.download::<u32>(&image)?)
}
// ANCHOR_END: gpu_splat32
