//! The wavefront: per sample, a generate kernel fills a queue with camera rays; per bounce, an
//! intersect kernel traces the queue, a shade kernel adds light and appends the paths that go on
//! to the other queue, and a one-thread kernel sizes the next bounce's dispatches.

use std::sync::Arc;

use gpu_context::{GpuContext, GpuScopes, ScopeTiming, wgpu, workgroups_for};

use crate::gpu::{Frame, GpuScene, Groups, RenderError, WORKGROUP, bind, record_pass, submit};
use crate::lane_count::LaneCounts;
use crate::reference::Image;
use crate::sampling::RenderSettings;

/// The shader: the shared functions, then the four kernels.
pub fn source() -> String {
    [
        include_str!("shaders/common.wgsl"),
        include_str!("shaders/wavefront.wgsl"),
    ]
    .concat()
}

/// The wavefront's shader with an `intersect` that counts its lanes by subgroup ballots (needs
/// `wgpu::Features::SUBGROUP`; see [`crate::lane_count`]), the ballot shared with the other
/// counting kernels.
pub fn lane_counting_source() -> String {
    [
        source().as_str(),
        crate::lane_count::BALLOT_WGSL,
        include_str!("shaders/wavefront_lanes.wgsl"),
    ]
    .concat()
}

/// Bytes of one queued ray (the shader's `Ray`) and of one hit.
const RAY_BYTES: u64 = 48;
const HIT_BYTES: u64 = 8;

/// What the queue counters say about one bounce of one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounts {
    /// Rays in the bounce's queue.
    pub rays_in: u32,
    /// Paths that ended at this bounce (found the light, missed, or reached the limit).
    pub terminated: u32,
    /// Paths appended to the next bounce's queue.
    pub continued: u32,
}

/// One wavefront render: the image, the GPU time of each pass, the queue counters per
/// (sample, bounce), sample-major.
pub struct WavefrontRender {
    pub image: Image,
    pub timings: Vec<ScopeTiming>,
    pub counts: Vec<QueueCounts>,
}

pub struct Wavefront {
    generate: Arc<wgpu::ComputePipeline>,
    intersect: Arc<wgpu::ComputePipeline>,
    shade: Arc<wgpu::ComputePipeline>,
    prepare: Arc<wgpu::ComputePipeline>,
}

/// The queues and counters of one render.
struct Queues {
    rays: [wgpu::Buffer; 2],
    hits: wgpu::Buffer,
    counts: wgpu::Buffer,
    dispatch_args: wgpu::Buffer,
}

impl Queues {
    fn new(ctx: &GpuContext, s: &RenderSettings) -> Result<Self, RenderError> {
        let n = u64::from(s.pixels());
        let steps = u64::from(s.samples * s.max_depth);
        let dispatch_args = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("dispatch args"),
            size: steps * 12,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT,
            mapped_at_creation: false,
        });
        Ok(Self {
            rays: [
                ctx.storage_buffer("ray queue 0", n * RAY_BYTES)?,
                ctx.storage_buffer("ray queue 1", n * RAY_BYTES)?,
            ],
            hits: ctx.storage_buffer("hits", n * HIT_BYTES)?,
            counts: ctx.storage_buffer("queue counts", steps * 16)?,
            dispatch_args,
        })
    }
}

impl Wavefront {
    pub fn new(ctx: &GpuContext) -> Result<Self, RenderError> {
        let wgsl = source();
        let pipeline = |entry: &str| ctx.cached_pipeline(entry, &wgsl, entry);
        Ok(Self {
            generate: pipeline("generate")?,
            intersect: pipeline("intersect")?,
            shade: pipeline("shade")?,
            prepare: pipeline("prepare")?,
        })
    }

    /// Records every sample of a render; each pass is timed under its kernel's name.
    fn record(
        &self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        (scene, frame, q): (&GpuScene, &Frame, &Queues),
        scopes: Option<&GpuScopes>,
        lanes: Option<(&wgpu::ComputePipeline, &wgpu::Buffer)>,
    ) {
        let s = frame.settings;
        let p = scopes.map(GpuScopes::profiler);
        let all_pixels = workgroups_for(s.pixels(), WORKGROUP);
        encoder.clear_buffer(&frame.image, 0, None);
        encoder.clear_buffer(&q.counts, 0, None);
        for sample in 0..s.samples {
            let params = |bounce| (0, frame.params(sample, bounce));
            let bg = bind(
                ctx,
                &self.generate,
                vec![
                    params(0),
                    (6, q.rays[0].as_entire_binding()),
                    (8, q.counts.as_entire_binding()),
                ],
            );
            record_pass(
                encoder,
                p,
                "generate",
                &self.generate,
                &bg,
                Groups::Direct(all_pixels),
            );
            // ANCHOR: queues
            for bounce in 0..s.max_depth {
                let (rays_in, rays_out) = (
                    &q.rays[bounce as usize % 2],
                    &q.rays[(bounce as usize + 1) % 2],
                );
                // The first bounce's queue holds every pixel; later ones as many as `prepare` said.
                let step = u64::from(sample * s.max_depth + bounce);
                let groups = || match bounce {
                    0 => Groups::Direct(all_pixels),
                    _ => Groups::Indirect(&q.dispatch_args, step * 12),
                };
                // ANCHOR_END: queues
                let mut resources = vec![
                    params(bounce),
                    (1, scene.triangles.as_entire_binding()),
                    (2, scene.nodes.as_entire_binding()),
                    (5, rays_in.as_entire_binding()),
                    (7, q.hits.as_entire_binding()),
                    (8, q.counts.as_entire_binding()),
                ];
                let intersect = match lanes {
                    Some((counting, counters)) => {
                        resources.push((10, counters.as_entire_binding()));
                        counting
                    }
                    None => &*self.intersect,
                };
                let bg = bind(ctx, intersect, resources);
                record_pass(encoder, p, "intersect", intersect, &bg, groups());
                let bg = bind(
                    ctx,
                    &self.shade,
                    vec![
                        params(bounce),
                        (1, scene.triangles.as_entire_binding()),
                        (3, scene.materials.as_entire_binding()),
                        (4, frame.image.as_entire_binding()),
                        (5, rays_in.as_entire_binding()),
                        (6, rays_out.as_entire_binding()),
                        (7, q.hits.as_entire_binding()),
                        (8, q.counts.as_entire_binding()),
                    ],
                );
                record_pass(encoder, p, "shade", &self.shade, &bg, groups());
                if bounce + 1 < s.max_depth {
                    let bg = bind(
                        ctx,
                        &self.prepare,
                        vec![
                            params(bounce),
                            (8, q.counts.as_entire_binding()),
                            (9, q.dispatch_args.as_entire_binding()),
                        ],
                    );
                    record_pass(encoder, p, "prepare", &self.prepare, &bg, Groups::Direct(1));
                }
            }
        }
    }

    /// Renders, reads back the image and the queue counters; with scopes, also each pass's
    /// GPU time.
    pub fn render(
        &self,
        ctx: &GpuContext,
        scene: &GpuScene,
        settings: RenderSettings,
        scopes: Option<&mut GpuScopes>,
    ) -> Result<WavefrontRender, RenderError> {
        let frame = Frame::new(ctx, settings)?;
        let queues = Queues::new(ctx, &settings)?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.record(
            ctx,
            &mut encoder,
            (scene, &frame, &queues),
            scopes.as_deref(),
            None,
        );
        let timings = submit(ctx, encoder, scopes)?;
        let raw: Vec<u32> = ctx.download(&queues.counts)?;
        let counts = raw
            .chunks_exact(4)
            .map(|c| QueueCounts {
                rays_in: c[0],
                terminated: c[1],
                continued: c[2],
            })
            .collect();
        Ok(WavefrontRender {
            image: frame.read_image(ctx)?,
            timings,
            counts,
        })
    }

    /// Renders with an `intersect` that counts, by subgroup ballots at every trip round its walk,
    /// the lanes taking part; returns the image and one count per bounce (summed over samples).
    /// `ctx` must have subgroup operations ([`crate::lane_count::LaneCounter::open_context`]).
    pub fn render_counting_lanes(
        &self,
        ctx: &GpuContext,
        scene: &GpuScene,
        settings: RenderSettings,
    ) -> Result<(Image, Vec<LaneCounts>), RenderError> {
        let counting = ctx.cached_pipeline(
            "intersect counting lanes",
            &lane_counting_source(),
            "intersect_counting_lanes",
        )?;
        let depth = u64::from(settings.max_depth);
        let counters = ctx.storage_buffer("wavefront lane counters", 16 * depth)?;
        let frame = Frame::new(ctx, settings)?;
        let queues = Queues::new(ctx, &settings)?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let lanes = Some((&*counting, &counters));
        self.record(ctx, &mut encoder, (scene, &frame, &queues), None, lanes);
        submit(ctx, encoder, None)?;
        let c: Vec<u32> = ctx.download(&counters)?;
        let per_bounce = c
            .chunks_exact(4)
            .map(|sums| LaneCounts {
                busy: sums[0].into(),
                offered: sums[1].into(),
                lane_trips: sums[2].into(),
                subgroup_trips: sums[3].into(),
            })
            .collect();
        Ok((frame.read_image(ctx)?, per_bounce))
    }
}
