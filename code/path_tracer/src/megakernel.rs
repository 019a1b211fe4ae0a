//! The megakernel: one dispatch per sample, one thread per pixel, every bounce in one loop.

use std::sync::Arc;

use gpu_context::{GpuContext, GpuScopes, ScopeTiming, wgpu, workgroups_for};

use crate::gpu::{Frame, GpuScene, Groups, RenderError, WORKGROUP, bind, record_pass, submit};
use crate::reference::Image;
use crate::sampling::RenderSettings;

/// The shader: the shared functions, then the kernel.
pub fn source() -> String {
    [
        include_str!("shaders/common.wgsl"),
        include_str!("shaders/megakernel.wgsl"),
    ]
    .concat()
}

pub struct Megakernel {
    pipeline: Arc<wgpu::ComputePipeline>,
}

impl Megakernel {
    pub fn new(ctx: &GpuContext) -> Result<Self, RenderError> {
        let pipeline = ctx.cached_pipeline("megakernel", &source(), "megakernel")?;
        Ok(Self { pipeline })
    }

    // ANCHOR: record
    /// Records every sample of a render: one pass each, timed as "megakernel".
    pub fn record(
        &self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        scene: &GpuScene,
        frame: &Frame,
        scopes: Option<&GpuScopes>,
    ) {
        let groups = workgroups_for(frame.settings.pixels(), WORKGROUP);
        encoder.clear_buffer(&frame.image, 0, None);
        for sample in 0..frame.settings.samples {
            let bind_group = bind(
                ctx,
                &self.pipeline,
                vec![
                    (0, frame.params(sample, 0)),
                    (1, scene.triangles.as_entire_binding()),
                    (2, scene.nodes.as_entire_binding()),
                    (3, scene.materials.as_entire_binding()),
                    (4, frame.image.as_entire_binding()),
                ],
            );
            let profiler = scopes.map(GpuScopes::profiler);
            let direct = Groups::Direct(groups);
            record_pass(
                encoder,
                profiler,
                "megakernel",
                &self.pipeline,
                &bind_group,
                direct,
            );
        }
    }
    // ANCHOR_END: record

    /// Renders and reads the image back; with scopes, also returns the GPU time of each pass.
    pub fn render(
        &self,
        ctx: &GpuContext,
        scene: &GpuScene,
        settings: RenderSettings,
        scopes: Option<&mut GpuScopes>,
    ) -> Result<(Image, Vec<ScopeTiming>), RenderError> {
        let frame = Frame::new(ctx, settings)?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.record(ctx, &mut encoder, scene, &frame, scopes.as_deref());
        let timings = submit(ctx, encoder, scopes)?;
        Ok((frame.read_image(ctx)?, timings))
    }
}
