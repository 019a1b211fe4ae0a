//! Lane use counted on the GPU while the work runs. Camera rays walk the tree, and at every trip
//! round the walk's loop a subgroup ballot counts the lanes taking part; whole paths run as in
//! the megakernel, and at the top of every bounce a ballot counts the lanes whose paths are
//! still alive. Needs the adapter's subgroup operations (`wgpu::Features::SUBGROUP`).

use std::sync::Arc;

use gpu_context::{GpuContext, Requirements, wgpu, workgroups_for};

use crate::gpu::{Frame, GpuScene, RenderError, WORKGROUP, bind};
use crate::sampling::RenderSettings;

/// The ballot that every counting kernel takes (`count_ballot`): joined to each of their
/// shaders, since WGSL has no imports.
pub const BALLOT_WGSL: &str = include_str!("shaders/ballot.wgsl");

/// The shader: the shared functions and the ballot, then the counting kernel. (WGSL spells the
/// extension `enable subgroups;`, but Naga 30 rejects that line and takes the built-ins without
/// it, once the device has the feature.)
pub fn source() -> String {
    [
        include_str!("shaders/common.wgsl"),
        BALLOT_WGSL,
        include_str!("shaders/lane_count.wgsl"),
    ]
    .concat()
}

/// The shader of the per-bounce count: the shared functions and the ballot, then the counting
/// megakernel.
pub fn bounce_source() -> String {
    [
        include_str!("shaders/common.wgsl"),
        BALLOT_WGSL,
        include_str!("shaders/bounce_lanes.wgsl"),
    ]
    .concat()
}

/// What the ballots at the top of one bounce added up, over every subgroup that ran it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BounceLanes {
    /// Lanes whose paths were alive at this bounce: the paths that traced a ray here.
    pub busy: u64,
    /// The subgroup's width, once for every subgroup that ran this bounce.
    pub offered: u64,
    /// Subgroups that ran this bounce (ballots taken).
    pub subgroups: u64,
}

impl BounceLanes {
    /// The share of offered lanes that had a path to trace at this bounce.
    pub fn lane_use(&self) -> f64 {
        self.busy as f64 / self.offered.max(1) as f64
    }

    /// Lanes per subgroup, as the ballots saw it.
    pub fn subgroup_size(&self) -> f64 {
        self.offered as f64 / self.subgroups.max(1) as f64
    }
}

/// What the ballots added up over one pass of camera rays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneCounts {
    /// Lanes that took part, summed over every subgroup's every trip.
    pub busy: u64,
    /// The subgroup's width, summed the same way: what the hardware offered.
    pub offered: u64,
    /// Trips round the loop, summed over lanes (the rays' node visits).
    pub lane_trips: u64,
    /// Trips round the loop, summed over subgroups.
    pub subgroup_trips: u64,
}

impl LaneCounts {
    /// The share of offered lanes that did work.
    pub fn lane_use(&self) -> f64 {
        self.busy as f64 / self.offered.max(1) as f64
    }

    /// Lanes per subgroup, as the ballots saw it.
    pub fn subgroup_size(&self) -> f64 {
        self.offered as f64 / self.subgroup_trips.max(1) as f64
    }
}

pub struct LaneCounter {
    pipeline: Arc<wgpu::ComputePipeline>,
    bounces: Arc<wgpu::ComputePipeline>,
}

impl LaneCounter {
    /// A context whose device has subgroup operations, or an error that names the feature.
    pub fn open_context() -> Result<GpuContext, RenderError> {
        Ok(GpuContext::with_requirements(&Requirements {
            features: wgpu::Features::SUBGROUP,
            ..Default::default()
        })?)
    }

    pub fn new(ctx: &GpuContext) -> Result<Self, RenderError> {
        let pipeline = ctx.cached_pipeline("lane count", &source(), "count_lanes")?;
        let bounces =
            ctx.cached_pipeline("bounce lane count", &bounce_source(), "count_bounce_lanes")?;
        Ok(Self { pipeline, bounces })
    }

    /// Walks one camera ray per pixel of `settings` (the renderers' first sample) and returns
    /// the ballots' sums.
    pub fn count(
        &self,
        ctx: &GpuContext,
        scene: &GpuScene,
        settings: RenderSettings,
    ) -> Result<LaneCounts, RenderError> {
        let frame = Frame::new(ctx, settings)?;
        let counters = ctx.storage_buffer("lane counters", 16)?;
        let bind_group = bind(
            ctx,
            &self.pipeline,
            vec![
                (0, frame.params(0, 0)),
                (1, scene.triangles.as_entire_binding()),
                (2, scene.nodes.as_entire_binding()),
                (3, counters.as_entire_binding()),
            ],
        );
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(workgroups_for(settings.pixels(), WORKGROUP), 1, 1);
        }
        ctx.queue.submit([encoder.finish()]);
        let c: Vec<u32> = ctx.download(&counters)?;
        Ok(LaneCounts {
            busy: c[0].into(),
            offered: c[1].into(),
            lane_trips: c[2].into(),
            subgroup_trips: c[3].into(),
        })
    }

    /// Runs the first sample of every pixel's path as the megakernel does and returns, for each
    /// bounce up to `settings.max_depth`, the ballots' sums at its top.
    pub fn count_bounces(
        &self,
        ctx: &GpuContext,
        scene: &GpuScene,
        settings: RenderSettings,
    ) -> Result<Vec<BounceLanes>, RenderError> {
        let frame = Frame::new(ctx, settings)?;
        let depth = settings.max_depth as usize;
        let counters = ctx.storage_buffer("bounce lane counters", 12 * depth as u64)?;
        let bind_group = bind(
            ctx,
            &self.bounces,
            vec![
                (0, frame.params(0, 0)),
                (1, scene.triangles.as_entire_binding()),
                (2, scene.nodes.as_entire_binding()),
                (3, scene.materials.as_entire_binding()),
                (4, counters.as_entire_binding()),
            ],
        );
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.bounces);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(workgroups_for(settings.pixels(), WORKGROUP), 1, 1);
        }
        ctx.queue.submit([encoder.finish()]);
        let c: Vec<u32> = ctx.download(&counters)?;
        Ok(c.chunks_exact(3)
            .take(depth)
            .map(|sums| BounceLanes {
                busy: sums[0].into(),
                offered: sums[1].into(),
                subgroups: sums[2].into(),
            })
            .collect())
    }
}
