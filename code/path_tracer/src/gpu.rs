//! What both GPU renderers share on the host side: the scene's buffers, the per-render image and
//! parameters, binding, recording one timed pass, and reading the image back.

use bytemuck::{Pod, Zeroable};
use gpu_context::{GpuContext, GpuError, GpuProfiler, GpuScopes, ScopeError, ScopeTiming, wgpu};

use crate::bvh::{Bvh, STACK_SIZE};
use crate::reference::Image;
use crate::sampling::RenderSettings;
use crate::scene::Material;

/// Threads per workgroup in every kernel that runs one thread per pixel or per ray.
pub const WORKGROUP: u32 = 64;

/// Why a render could not run.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Scopes(#[from] ScopeError),
    #[error(
        "invalid render settings ({0}): width, height, samples and max_depth must all be at \
         least 1, and the image at most 4096 × 4096"
    )]
    Settings(String),
    #[error(
        "the BVH is {depth} levels deep but the shaders' traversal stack holds {STACK_SIZE}: \
         use fewer triangles"
    )]
    TooDeep { depth: usize },
}

/// The scene on the device: triangles in BVH order, the nodes, the materials.
pub struct GpuScene {
    pub triangles: wgpu::Buffer,
    pub nodes: wgpu::Buffer,
    pub materials: wgpu::Buffer,
}

impl GpuScene {
    pub fn upload(
        ctx: &GpuContext,
        bvh: &Bvh,
        materials: &[Material],
    ) -> Result<Self, RenderError> {
        let depth = bvh.depth();
        if depth >= STACK_SIZE {
            return Err(RenderError::TooDeep { depth });
        }
        Ok(Self {
            triangles: ctx.upload("triangles", &bvh.triangles)?,
            nodes: ctx.upload("bvh nodes", &bvh.nodes)?,
            materials: ctx.upload("materials", materials)?,
        })
    }
}

/// The shaders' `Params`: one copy per (sample, bounce), each at its own 256-byte offset
/// (the alignment uniform bindings need), so that one submission can hold a whole render.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
struct Params {
    width: u32,
    height: u32,
    sample: u32,
    bounce: u32,
    max_depth: u32,
    seed: u32,
    tan_half_fov: f32,
    _pad: u32,
}

const PARAMS_STRIDE: u64 = 256;

/// The per-render buffers both renderers use: the summed radiance and the parameters.
pub struct Frame {
    pub settings: RenderSettings,
    /// One `vec4f` per pixel: the sum of its paths' radiance (w unused).
    pub image: wgpu::Buffer,
    params: wgpu::Buffer,
}

impl Frame {
    pub fn new(ctx: &GpuContext, settings: RenderSettings) -> Result<Self, RenderError> {
        let s = settings;
        if s.width == 0 || s.height == 0 || s.samples == 0 || s.max_depth == 0 {
            return Err(RenderError::Settings(format!("{s:?}")));
        }
        if s.width > 4096 || s.height > 4096 {
            return Err(RenderError::Settings(format!("{s:?}")));
        }
        let mut bytes = vec![0u8; (s.samples * s.max_depth) as usize * PARAMS_STRIDE as usize];
        for sample in 0..s.samples {
            for bounce in 0..s.max_depth {
                let p = Params {
                    width: s.width,
                    height: s.height,
                    sample,
                    bounce,
                    max_depth: s.max_depth,
                    seed: s.seed,
                    tan_half_fov: s.tan_half_fov,
                    _pad: 0,
                };
                let at = (sample * s.max_depth + bounce) as usize * PARAMS_STRIDE as usize;
                bytes[at..at + size_of::<Params>()].copy_from_slice(bytemuck::bytes_of(&p));
            }
        }
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: bytes.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ctx.queue.write_buffer(&params, 0, &bytes);
        let image = ctx.storage_buffer("image", u64::from(s.pixels()) * 16)?;
        Ok(Self {
            settings,
            image,
            params,
        })
    }

    /// The parameters of one (sample, bounce), as a binding.
    pub fn params(&self, sample: u32, bounce: u32) -> wgpu::BindingResource<'_> {
        let offset = u64::from(sample * self.settings.max_depth + bounce) * PARAMS_STRIDE;
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.params,
            offset,
            size: wgpu::BufferSize::new(size_of::<Params>() as u64),
        })
    }

    /// The mean radiance per pixel (waits for the GPU).
    pub fn read_image(&self, ctx: &GpuContext) -> Result<Image, RenderError> {
        let sums: Vec<[f32; 4]> = ctx.download(&self.image)?;
        let n = self.settings.samples as f32;
        Ok(Image {
            width: self.settings.width,
            height: self.settings.height,
            pixels: sums
                .iter()
                .map(|s| [s[0] / n, s[1] / n, s[2] / n])
                .collect(),
        })
    }
}

/// A bind group for group 0 of `pipeline` with each resource at the binding number given
/// (a kernel's automatic layout holds only the bindings it uses).
pub fn bind(
    ctx: &GpuContext,
    pipeline: &wgpu::ComputePipeline,
    resources: Vec<(u32, wgpu::BindingResource<'_>)>,
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
        .into_iter()
        .map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource })
        .collect();
    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// How many workgroups a pass runs: known when recording, or read by the GPU from a buffer
/// that an earlier kernel wrote (`(x, y, z)` as three u32 at the byte offset).
pub enum Groups<'a> {
    Direct(u32),
    Indirect(&'a wgpu::Buffer, u64),
}

/// Records one compute pass, inside a GPU timing scope named `label` when profiling.
pub fn record_pass(
    encoder: &mut wgpu::CommandEncoder,
    profiler: Option<&GpuProfiler>,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    bind_group: &wgpu::BindGroup,
    groups: Groups<'_>,
) {
    let run = |encoder: &mut wgpu::CommandEncoder| {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        match groups {
            Groups::Direct(x) => pass.dispatch_workgroups(x, 1, 1),
            Groups::Indirect(buffer, offset) => pass.dispatch_workgroups_indirect(buffer, offset),
        }
    };
    match profiler {
        Some(p) => run(p.scope(label, encoder).recorder),
        None => run(encoder),
    }
}

/// Submits `encoder` and waits; with scopes, resolves them first and returns the frame's.
pub fn submit(
    ctx: &GpuContext,
    mut encoder: wgpu::CommandEncoder,
    scopes: Option<&mut GpuScopes>,
) -> Result<Vec<ScopeTiming>, RenderError> {
    match scopes {
        Some(scopes) => {
            scopes.resolve(&mut encoder);
            ctx.queue.submit([encoder.finish()]);
            Ok(scopes.finish_frame(ctx)?)
        }
        None => {
            ctx.queue.submit([encoder.finish()]);
            ctx.wait()?;
            Ok(Vec::new())
        }
    }
}

/// The time from the first scope's start to the last one's end: the whole render on the GPU,
/// gaps between passes included.
pub fn span_s(timings: &[ScopeTiming]) -> Option<f64> {
    let start = timings.iter().map(|t| t.start_s).reduce(f64::min)?;
    let end = timings.iter().map(|t| t.end_s).reduce(f64::max)?;
    Some(end - start)
}

/// Each label's scopes added up, in the order the labels first appear.
pub fn totals_by_label(timings: &[ScopeTiming]) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for t in timings {
        match out.iter_mut().find(|(label, _)| *label == t.label) {
            Some((_, total)) => *total += t.duration_s(),
            None => out.push((t.label.clone(), t.duration_s())),
        }
    }
    out
}
