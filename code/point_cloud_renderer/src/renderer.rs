//! The GPU renderer: buffers made once per cloud, four passes recorded per frame, each in a
//! timing scope.

use std::sync::Arc;

use gpu_context::{GpuContext, GpuProfiler, GpuScopes, ScopeTiming, wgpu};
use quantization::specialisations::atomic_depth::Packing32;
use quantization::specialisations::gpu_splat::{self, SplatParams};
use quantization::specialisations::splat::{ScreenPoint, check_ids, check_image};

use crate::{Camera, PointCloud, RenderError};

pub(crate) const COMMON: &str = include_str!("wgsl/common.wgsl");
const CLEAR: &str = include_str!("wgsl/clear.wgsl");
const PROJECT: &str = include_str!("wgsl/project.wgsl");
const EARLY_REJECT: &str = include_str!("wgsl/splat_early_reject.wgsl");
const FUSED: &str = include_str!("wgsl/splat_fused.wgsl");
const RESOLVE: &str = include_str!("wgsl/resolve.wgsl");

/// At most this many workgroups in one dispatch; the kernels' grid-stride loops cover the rest.
const MAX_GROUPS: u32 = 65_535;

/// The nearest depth and the farthest depth the renderer keeps (metres from the camera).
pub const NEAR: f32 = 0.1;
pub const FAR: f32 = 40.0;

// ANCHOR: variants
/// The optimization steps, in the order the profile suggests them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Project into a buffer, then module 3's kernel: one `atomicMin` per visible point.
    Naive,
    /// The same two passes; the splat reads the pixel first and skips the atomic when the pixel
    /// already holds a nearer point.
    EarlyReject,
    /// Projection and early-reject splat in one kernel: no projected-points buffer.
    Fused,
}
// ANCHOR_END: variants

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Naive, Variant::EarlyReject, Variant::Fused];

    pub fn label(self) -> &'static str {
        match self {
            Variant::Naive => "naive",
            Variant::EarlyReject => "early_reject",
            Variant::Fused => "fused",
        }
    }
}

/// The packing for `points` points: the fewest id bits that number them (at least 8), the rest
/// of 32 bits for depth over [`NEAR`, `FAR`).
pub fn packing_for(points: usize) -> Result<Packing32, RenderError> {
    if points == 0 {
        return Err(RenderError::Empty);
    }
    let id_bits = (usize::BITS - (points - 1).leading_zeros()).max(8);
    if id_bits > 24 {
        return Err(RenderError::TooManyPoints { points, id_bits });
    }
    Ok(Packing32::new(32 - id_bits, NEAR, FAR)?)
}

/// One rendered frame read back: each pixel's packed depth|id ([`EMPTY32`] where no point
/// landed) and its colour.
///
/// [`EMPTY32`]: quantization::specialisations::atomic_depth::EMPTY32
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub width: u32,
    pub height: u32,
    pub packed: Vec<u32>,
    pub rgba: Vec<u32>,
}

pub(crate) struct Pass {
    pipeline: Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    pub(crate) groups: u32,
}

impl Pass {
    fn new(
        ctx: &GpuContext,
        (label, source, entry): (&str, &str, &str),
        buffers: &[&wgpu::Buffer],
        items: usize,
        group_size: u32,
    ) -> Result<Self, RenderError> {
        let pipeline = ctx.cached_pipeline(label, source, entry)?;
        let bind_group = ctx.bind_buffers(&pipeline, buffers);
        let groups = gpu_context::workgroups_for(items as u32, group_size).clamp(1, MAX_GROUPS);
        Ok(Self {
            pipeline,
            bind_group,
            groups,
        })
    }

    pub(crate) fn record(&self, pass: &mut wgpu::ComputePass<'_>) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.dispatch_workgroups(self.groups, 1, 1);
    }
}

/// A cloud on the GPU, ready to be drawn from any camera into a `width`×`height` frame.
pub struct Renderer {
    width: u32,
    height: u32,
    count: u32,
    packing: Packing32,
    camera: wgpu::Buffer,
    // The fields the counting splat (`atomics.rs`) binds and records too.
    pub(crate) params: wgpu::Buffer,
    pub(crate) screen: wgpu::Buffer,
    pub(crate) image: wgpu::Buffer,
    rgba: wgpu::Buffer,
    pub(crate) clear: Pass,
    pub(crate) project: Pass,
    pub(crate) splat_naive: Pass,
    splat_early_reject: Pass,
    fused: Pass,
    resolve: Pass,
}

impl Renderer {
    /// Uploads the cloud and compiles the kernels. Refuses an empty frame, an empty cloud, a
    /// colour count that differs from the point count, and more points than the packing's ids.
    pub fn new(
        ctx: &GpuContext,
        cloud: &PointCloud,
        camera: &Camera,
        (width, height): (u32, u32),
        packing: Packing32,
    ) -> Result<Self, RenderError> {
        let pixels = check_image(width, height)?;
        let count = cloud.len();
        if count == 0 {
            return Err(RenderError::Empty);
        }
        if cloud.colours.len() != count {
            return Err(RenderError::Colours {
                positions: count,
                colours: cloud.colours.len(),
            });
        }
        check_ids(count, &packing)?;
        let params = SplatParams::new(width, height, count as u32, &packing);
        let params = ctx.upload("splat params", &[params])?;
        let camera = ctx.upload("camera", &[camera.to_gpu(count as u32)])?;
        let positions = ctx.upload("positions", &cloud.positions)?;
        let colours = ctx.upload("colours", &cloud.colours)?;
        let point_bytes = std::mem::size_of::<ScreenPoint>() as u64;
        let screen = ctx.storage_buffer("projected points", count as u64 * point_bytes)?;
        let image = ctx.storage_buffer("depth|id image", pixels as u64 * 4)?;
        let rgba = ctx.storage_buffer("rgba image", pixels as u64 * 4)?;

        let with_common = |kernel: &str| format!("{COMMON}\n{kernel}");
        let (project_src, early_src) = (with_common(PROJECT), with_common(EARLY_REJECT));
        let (fused_src, resolve_src) = (with_common(FUSED), with_common(RESOLVE));
        Ok(Self {
            clear: Pass::new(ctx, ("clear", CLEAR, "clear"), &[&image], pixels, 256)?,
            project: Pass::new(
                ctx,
                ("project", &project_src, "project_points"),
                &[&camera, &positions, &screen],
                count,
                64,
            )?,
            // Module 3's kernel itself, not a copy.
            splat_naive: Pass::new(
                ctx,
                ("splat_atomic_min", gpu_splat::SHADER, "splat"),
                &[&params, &screen, &image],
                count,
                64,
            )?,
            splat_early_reject: Pass::new(
                ctx,
                ("splat_early_reject", &early_src, "splat"),
                &[&params, &screen, &image],
                count,
                64,
            )?,
            fused: Pass::new(
                ctx,
                ("project_splat", &fused_src, "project_splat"),
                &[&params, &camera, &positions, &image],
                count,
                64,
            )?,
            resolve: Pass::new(
                ctx,
                ("resolve", &resolve_src, "resolve"),
                &[&params, &image, &colours, &rgba],
                pixels,
                256,
            )?,
            width,
            height,
            count: count as u32,
            packing,
            camera,
            params,
            screen,
            image,
            rgba,
        })
    }

    pub fn packing(&self) -> &Packing32 {
        &self.packing
    }

    /// Where the next frames look from.
    pub fn set_camera(&self, ctx: &GpuContext, camera: &Camera) {
        let gpu = camera.to_gpu(self.count);
        ctx.queue
            .write_buffer(&self.camera, 0, bytemuck::bytes_of(&gpu));
    }

    // ANCHOR: record
    /// Records one frame into `encoder`: a `frame` scope holding one scope per pass.
    pub fn record(
        &self,
        profiler: &GpuProfiler,
        encoder: &mut wgpu::CommandEncoder,
        variant: Variant,
    ) {
        let mut frame = profiler.scope("frame", encoder);
        self.clear.record(&mut frame.scoped_compute_pass("clear"));
        match variant {
            Variant::Naive | Variant::EarlyReject => {
                self.project
                    .record(&mut frame.scoped_compute_pass("project"));
                let splat = match variant {
                    Variant::Naive => &self.splat_naive,
                    _ => &self.splat_early_reject,
                };
                splat.record(&mut frame.scoped_compute_pass("splat"));
            }
            Variant::Fused => self
                .fused
                .record(&mut frame.scoped_compute_pass("project+splat")),
        }
        self.resolve
            .record(&mut frame.scoped_compute_pass("resolve"));
    }
    // ANCHOR_END: record

    /// Records, submits and waits for one frame; returns its scopes (empty where the device has
    /// no timestamp queries).
    pub fn render(
        &self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        variant: Variant,
    ) -> Result<Vec<ScopeTiming>, RenderError> {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.record(scopes.profiler(), &mut encoder, variant);
        scopes.resolve(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
        Ok(scopes.finish_frame(ctx)?)
    }

    // ANCHOR: render_named
    /// Like [`Renderer::render`], with the frame inside one debug group called `group`. With
    /// scopes from `GpuScopes::with_debug_groups(ctx, true)`, a frame debugger lists the frame
    /// under `group` and each pass under its scope's name.
    pub fn render_named(
        &self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        variant: Variant,
        group: &str,
    ) -> Result<Vec<ScopeTiming>, RenderError> {
        let label = Some(group);
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label });
        encoder.push_debug_group(group);
        self.record(scopes.profiler(), &mut encoder, variant);
        encoder.pop_debug_group();
        scopes.resolve(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
        Ok(scopes.finish_frame(ctx)?) // waits for the frame
    }
    // ANCHOR_END: render_named

    /// The last frame, read back.
    pub fn read_frame(&self, ctx: &GpuContext) -> Result<Frame, RenderError> {
        Ok(Frame {
            width: self.width,
            height: self.height,
            packed: ctx.download(&self.image)?,
            rgba: ctx.download(&self.rgba)?,
        })
    }

    /// The last frame's colours only (RGBA8, red in the low byte): half the bytes of
    /// [`Renderer::read_frame`], for a display.
    pub fn read_rgba(&self, ctx: &GpuContext) -> Result<Vec<u32>, RenderError> {
        Ok(ctx.download(&self.rgba)?)
    }

    /// The projected points of the last two-pass frame ([`Variant::Naive`] or
    /// [`Variant::EarlyReject`]; the fused kernel keeps them in registers).
    pub fn read_projected(&self, ctx: &GpuContext) -> Result<Vec<ScreenPoint>, RenderError> {
        Ok(ctx.download(&self.screen)?)
    }
}
