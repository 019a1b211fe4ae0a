//! What every part shares: the GPU with its renderers and timing scopes, the scene and figure
//! names.

use std::time::Instant;

use anyhow::Context;
use gpu_context::{GpuContext, GpuScopes};
use path_tracer::bvh::Bvh;
use path_tracer::gpu::span_s;
use path_tracer::megakernel::Megakernel;
use path_tracer::wavefront::{Wavefront, WavefrontRender};
use path_tracer::{GpuScene, RenderSettings, Scene};

/// The device, its timing scopes when it has timestamps, and both renderers.
pub struct Gpu {
    pub ctx: GpuContext,
    pub scopes: Option<GpuScopes>,
    pub megakernel: Megakernel,
    pub wavefront: Wavefront,
}

impl Gpu {
    pub fn open() -> anyhow::Result<Self> {
        let (ctx, with_scopes) = match GpuScopes::open_context() {
            Ok(ctx) => (ctx, true),
            Err(_) => (
                GpuContext::new().context("the figures need a GPU adapter (lavapipe will do)")?,
                false,
            ),
        };
        let scopes = if with_scopes {
            Some(GpuScopes::new(&ctx)?)
        } else {
            None
        };
        Ok(Self {
            megakernel: Megakernel::new(&ctx)?,
            wavefront: Wavefront::new(&ctx)?,
            ctx,
            scopes,
        })
    }

    pub fn timing_source(&self) -> &'static str {
        if self.scopes.is_some() {
            "GPU timestamps (scopes around every pass)"
        } else {
            "CPU wall clock around submit and wait"
        }
    }

    /// One megakernel render: its GPU time (seconds).
    pub fn time_megakernel(&mut self, scene: &GpuScene, s: RenderSettings) -> anyhow::Result<f64> {
        let start = Instant::now();
        let (_, timings) = self
            .megakernel
            .render(&self.ctx, scene, s, self.scopes.as_mut())?;
        Ok(span_s(&timings).unwrap_or_else(|| start.elapsed().as_secs_f64()))
    }

    /// One wavefront render: its GPU time (seconds) and what it recorded.
    pub fn time_wavefront(
        &mut self,
        scene: &GpuScene,
        s: RenderSettings,
    ) -> anyhow::Result<(f64, WavefrontRender)> {
        let start = Instant::now();
        let out = self
            .wavefront
            .render(&self.ctx, scene, s, self.scopes.as_mut())?;
        Ok((
            span_s(&out.timings).unwrap_or_else(|| start.elapsed().as_secs_f64()),
            out,
        ))
    }
}

/// The room with `confetti` random triangles, its BVH on the device, and its triangle count.
pub fn scene_on_gpu(ctx: &GpuContext, confetti: usize) -> anyhow::Result<(GpuScene, usize)> {
    let scene = Scene::room(confetti, 2026);
    let bvh = Bvh::build(&scene.triangles);
    Ok((
        GpuScene::upload(ctx, &bvh, &scene.materials)?,
        bvh.triangles.len(),
    ))
}

/// Median, lowest and highest of a few samples.
pub fn median_min_max(mut samples: Vec<f64>) -> (f64, f64, f64) {
    samples.sort_by(f64::total_cmp);
    (
        samples[samples.len() / 2],
        samples[0],
        samples[samples.len() - 1],
    )
}

/// `x` to seven significant digits, as the tables keep times (and so as the charts draw them).
pub fn seven_digits(x: f64) -> f64 {
    bench_harness::digits::significant(x, 7)
}
